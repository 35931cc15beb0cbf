#include "tessera/iss/elf_image.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/runtime/tile_abi.hpp"

namespace tessera::iss {
namespace {

namespace abi = tile_abi;

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

bool within(std::uint64_t addr, std::uint64_t size, std::uint64_t base, std::uint64_t limit) {
  return addr >= base && size <= limit && addr - base <= limit - size;
}

struct elf_closer {
  void operator()(Elf* e) const { elf_end(e); }
};

}  // namespace

elf_image load_elf(const std::string& path) {
  const std::string what = "--firmware '" + shown(path, 160) + "'";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(what + " cannot be read");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw input_error(what + " cannot be read");
  if (static_cast<std::uint64_t>(size) > max_image_bytes)
    throw input_error(what + " is larger than " + std::to_string(max_image_bytes >> 20) + " MiB");
  std::vector<char> file(static_cast<std::size_t>(size));
  in.seekg(0);
  if (!in.read(file.data(), size)) throw input_error(what + " cannot be read");
  if (file.size() < 4 || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0)
    throw input_error(what + " is not an ELF file");

  if (elf_version(EV_CURRENT) == EV_NONE)
    throw input_error("libelf: " + std::string(elf_errmsg(-1)));
  std::unique_ptr<Elf, elf_closer> e{elf_memory(file.data(), file.size())};
  if (!e || elf_kind(e.get()) != ELF_K_ELF) throw input_error(what + " is not an ELF file");
  GElf_Ehdr eh;
  if (gelf_getehdr(e.get(), &eh) == nullptr)
    throw input_error(what + " has no readable ELF header");
  if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_machine != EM_ARM) {
    throw input_error(what +
                      " is not a 32-bit little-endian ARM image (the tiles are Cortex-M4; "
                      "build it with arm-none-eabi-g++ -mcpu=cortex-m4)");
  }
  if (eh.e_type != ET_EXEC) throw input_error(what + " is not an executable (ET_EXEC)");

  elf_image img;
  img.path = path;
  img.entry = static_cast<std::uint32_t>(eh.e_entry);
  std::size_t phnum = 0;
  if (elf_getphdrnum(e.get(), &phnum) != 0) throw input_error(what + " has no program headers");
  for (std::size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(e.get(), static_cast<int>(i), &ph) == nullptr)
      throw input_error(what + ": program header " + std::to_string(i) + " is unreadable");
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz || ph.p_offset > file.size() ||
        ph.p_filesz > file.size() - ph.p_offset) {
      throw input_error(what + ": segment " + std::to_string(i) + " lies outside the file");
    }
    const bool flash = within(ph.p_paddr, ph.p_memsz, abi::flash_base, abi::flash_size);
    const bool ram = within(ph.p_paddr, ph.p_memsz, abi::ram_base + abi::boot_size,
                            abi::ram_size - abi::boot_size);
    if (!flash && !ram) {
      throw input_error(what + " is too big for the tile or not linked for it: segment at " +
                        hex(ph.p_paddr) + " of " + std::to_string(ph.p_memsz) +
                        " bytes lies outside flash (" + hex(abi::flash_base) + ", " +
                        std::to_string(abi::flash_size >> 10) + " KiB) and RAM (" +
                        hex(abi::ram_base + abi::boot_size) + ", " +
                        std::to_string((abi::ram_size - abi::boot_size) >> 10) + " KiB)");
    }
    (flash ? img.flash_bytes : img.ram_bytes) += ph.p_memsz;
    elf_segment s;
    s.addr = static_cast<std::uint32_t>(ph.p_paddr);
    s.memsz = static_cast<std::uint32_t>(ph.p_memsz);
    s.bytes.resize(ph.p_filesz);
    if (ph.p_filesz > 0) std::memcpy(s.bytes.data(), file.data() + ph.p_offset, ph.p_filesz);
    img.segments.push_back(std::move(s));
  }
  if (img.segments.empty()) throw input_error(what + " has no loadable segment");

  bool have_command = false;
  bool have_heap_end = false;
  std::optional<GElf_Sym> contract_sym;
  for (Elf_Scn* scn = elf_nextscn(e.get(), nullptr); scn != nullptr;
       scn = elf_nextscn(e.get(), scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
      continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr) continue;
    const std::size_t n = sh.sh_size / sh.sh_entsize;
    for (std::size_t k = 0; k < n; ++k) {
      GElf_Sym sym;
      if (gelf_getsym(data, static_cast<int>(k), &sym) == nullptr) continue;
      const char* name = elf_strptr(e.get(), sh.sh_link, sym.st_name);
      if (name == nullptr) continue;
      if (std::strcmp(name, "tessera_nic_command") == 0) {
        img.nic_command = static_cast<std::uint32_t>(sym.st_value) & ~1U;
        have_command = true;
      } else if (std::strcmp(name, "__heap_end") == 0) {
        img.heap_end = static_cast<std::uint32_t>(sym.st_value);
        have_heap_end = true;
      } else if (std::strcmp(name, "tessera_contract") == 0 && sym.st_shndx != SHN_UNDEF) {
        contract_sym = sym;
      }
    }
  }
  if (!have_command || !have_heap_end) {
    throw input_error(what + " is not a Tessera tile image: it lacks the symbol " +
                      std::string(have_command ? "__heap_end" : "tessera_nic_command") +
                      " (link it with the tile runtime, docs/tiles.md)");
  }
  if (!within(img.heap_end - abi::stack_guard, abi::stack_guard, abi::ram_base, abi::ram_size) ||
      img.heap_end % abi::stack_guard != 0) {
    throw input_error(what + ": __heap_end " + hex(img.heap_end) +
                      " is not a page boundary in tile RAM (the stack guard goes below it)");
  }
  if (contract_sym) {
    if (contract_sym->st_size != sizeof(fw::contract)) {
      throw input_error(what + ": its tessera_contract is " +
                        std::to_string(contract_sym->st_size) +
                        " bytes, this platform's contract " + std::to_string(sizeof(fw::contract)) +
                        " (build it against this Tessera's tessera/firmware/contract.hpp)");
    }
    const std::uint64_t at = contract_sym->st_value;
    for (const elf_segment& s : img.segments) {
      if (at < s.addr || at - s.addr > s.bytes.size() ||
          sizeof(fw::contract) > s.bytes.size() - (at - s.addr))
        continue;
      fw::contract k;
      std::memcpy(&k, s.bytes.data() + (at - s.addr), sizeof k);
      img.contract = k;
    }
    if (!img.contract) {
      throw input_error(what + ": its tessera_contract at " + hex(at) +
                        " lies outside the bytes it loads (declare it const, TESSERA_CONTRACT)");
    }
  }
  return img;
}

}  // namespace tessera::iss
