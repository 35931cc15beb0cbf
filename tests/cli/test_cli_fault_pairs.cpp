// Two faults on one message (docs/faults.md, "Several faults on one message"), on every
// model that runs faults. The workload is one 64-byte message from tile 0 to tile 1 on
// hypercube:1, so every fault below meets that message, and each pair is run in both
// orders, raw and under --protocol reliable. The expected report is derived here from the
// rules alone:
//
// - the message enters the fabric when tile 0 runs (cycle e: 0, or 1000 after a stall of
//   tile 0 from 0 to 1000) and arrives T cycles later; T is the model's zero-load time of
//   64 bytes over one hop: alpha-beta ts + tw m = 100 + 64 (Grama, defaults ts 100,
//   tw 1), circuit switching (tlm, rtl) xi + i tau + i + k - 1 = 100 + 2 + 1 + 63
//   (Boppana90 §2, defaults xi 100, tau 2, width 1);
// - a link already down at e makes it undeliverable at e: it never enters, so a drop or
//   corrupt aimed at the first message that enters finds none;
// - otherwise the faults that meet it act in the order given at its arrival a = e + T:
//   a drop or a link that went down in flight loses it, a corrupt flips a byte; once it
//   is lost the faults after find nothing (they do not act). A message damaged and then
//   lost is listed once in lost[], as lost.
// Under the reliable protocol the timer (twice the round trip) retransmits the first copy
// only when it is lost or damaged, and the retransmission (message #2) is intact; a link
// stays down, so every one of the 1 + max_retries (10) copies after it fails is lost and
// the send fails for want of an ack.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using nlohmann::json;

constexpr std::uint64_t stall_end = 1000;
constexpr std::uint64_t copies = 1 + 10;  // the first copy and max_retries retransmissions

struct fault {
  char kind;        // 'D' drop, 'C' corrupt, 'L' link, 'S' stall of the sender
  std::uint64_t t;  // link: the cycle it fails
  [[nodiscard]] std::string spec() const {
    switch (kind) {
      case 'D':
        return "drop=0->1#1";
      case 'C':
        return "corrupt=0->1#1";
      case 'L':
        return "link=0-1@" + std::to_string(t);
      default:
        return "stall=0@0+" + std::to_string(stall_end);
    }
  }
};

struct effect {
  bool acted{false};
  std::uint64_t first{0};
  std::uint64_t messages{0};
};

struct expected {
  std::vector<effect> faults;
  std::string cause;  // of the first copy: "dropped", "corrupted", "cut in flight", ...
  std::size_t by{0};  // the fault that lost or damaged it
  std::uint64_t cycle{0};
  bool lost{false};     // the first copy never reached tile 1
  bool damaged{false};  // it reached tile 1 with a byte flipped
  bool link{false};     // a link fault is in the run (it stays down)
};

expected derive(const std::vector<fault>& fs, std::uint64_t hop) {
  expected x;
  x.faults.resize(fs.size());
  std::uint64_t e = 0;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (fs[i].kind == 'S') {
      e = stall_end;
      x.faults[i] = {true, 0, 0};
    }
    x.link = x.link || fs[i].kind == 'L';
  }
  const std::uint64_t a = e + hop;
  for (std::size_t i = 0; i < fs.size() && !x.lost; ++i) {
    if (fs[i].kind == 'L' && fs[i].t <= e) {
      x.lost = true;
      x.cause = "undeliverable";
      x.by = i;
      x.cycle = e;
      x.faults[i] = {true, e, 1};
    }
  }
  for (std::size_t i = 0; i < fs.size() && !x.lost; ++i) {
    const fault& f = fs[i];
    if (f.kind == 'S' || (f.kind == 'L' && f.t >= a)) continue;
    x.faults[i] = {true, a, 1};
    x.by = i;
    x.cycle = a;
    if (f.kind == 'C') {
      x.damaged = true;
      x.cause = "corrupted";
    } else {
      x.lost = true;
      x.cause = f.kind == 'D' ? "dropped" : "cut in flight";
    }
  }
  return x;
}

std::string one_message() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("tessera_fault_pairs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "one.json").string();
  std::ofstream(path) << R"({"tiles": 2, "ops": [[{"op": "send", "peer": 1, "bytes": 64}],
      [{"op": "recv", "peer": 0, "bytes": 64}]]})";
  return path;
}

void check_pair(const std::string& model, std::uint64_t hop, const std::string& proto,
                const std::vector<fault>& fs) {
  std::string args = "run --model " + model + " --fabric hypercube:1 --schedule " + one_message() +
                     " --protocol " + proto;
  for (const fault& f : fs)
    args += " --fault '" + f.spec() + "'";
  INFO(args);
  const expected x = derive(fs, hop);
  const bool reliable = proto == "reliable";
  const auto r = tessera::test::run_binary(args + " --json");
  const bool survives = reliable && !x.link;
  REQUIRE(r.code == (survives ? 0 : 1));
  const json j = json::parse(r.out);
  CHECK(j["verified"] == survives);
  REQUIRE(j["faults"].size() == fs.size());
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const json& f = j["faults"][i];
    INFO("fault " << fs[i].spec());
    CHECK(f["fault"] == fs[i].spec());
    if (fs[i].kind == 'L' && reliable) {
      // Every copy after the first is undeliverable; the first too unless another
      // fault took it first.
      CHECK(f["acted"] == true);
      if (x.by == i) CHECK(f["first_cycle"] == x.cycle);
      CHECK(f["messages"] == copies - (x.by == i ? 0 : 1));
      continue;
    }
    CHECK(f["acted"] == x.faults[i].acted);
    if (x.faults[i].acted) CHECK(f["first_cycle"] == x.faults[i].first);
    if (fs[i].kind == 'S') {
      CHECK(f["held_cycles"] == stall_end);
    } else {
      CHECK(f["messages"] == x.faults[i].messages);
    }
  }
  // The first copy's fate is the first entry of lost[], listed once.
  REQUIRE(!j["lost"].empty());
  const json& l = j["lost"][0];
  CHECK(l["cause"] == x.cause);
  CHECK(l["fault"] == fs[x.by].spec());
  CHECK(l["cycle"] == x.cycle);
  CHECK(j["lost"].size() == (reliable && x.link ? copies : 1));
  const std::string failure = j.value("failure", "");
  if (!reliable) {
    CHECK(failure.find("(fault " + fs[x.by].spec() + ")") != std::string::npos);
    const std::string what = !x.lost                ? "got block 0 from tile 0 (step 1) with byte"
                             : x.cause == "dropped" ? "lost block 0 from tile 0 (step 1)"
                                                    : "never got block 0 from tile 0 (step 1)";
    CHECK(failure.starts_with("tile 1 " + what));
  } else if (x.link) {
    CHECK(failure.starts_with(
        "tile 0: op 0 (send, step 1): no acknowledgement after the last retransmission"));
  } else {
    CHECK(j["reliable"]["retransmissions"] == 1);
    CHECK(j["reliable"]["rejected_damaged"] == (x.damaged && !x.lost ? 1 : 0));
  }
}

void every_pair(const std::string& model, std::uint64_t hop) {
  // A link failing in flight (cycle 50, after the message entered at 0) or before it
  // enters (cycle 0; with the stall, 500 is before it enters at 1000 too).
  const std::vector<fault> kinds{{'D', 0}, {'C', 0}, {'L', 50}, {'S', 0}};
  for (const std::string proto : {"raw", "reliable"}) {
    for (std::size_t a = 0; a < kinds.size(); ++a) {
      for (std::size_t b = 0; b < kinds.size(); ++b) {
        if (a != b) check_pair(model, hop, proto, {kinds[a], kinds[b]});
      }
    }
    for (const fault f : {fault{'D', 0}, fault{'C', 0}}) {
      check_pair(model, hop, proto, {{'L', 0}, f});
      check_pair(model, hop, proto, {f, {'L', 0}});
    }
    check_pair(model, hop, proto, {{'S', 0}, {'L', 500}});
    check_pair(model, hop, proto, {{'C', 0}, {'D', 0}, {'L', 50}});
  }
}

}  // namespace

TEST_CASE("alphabeta: two faults on one message act in the order given", "[cli][faults]") {
  every_pair("alphabeta", 100 + 64);
}

#ifdef TESSERA_TEST_PLATFORM
TEST_CASE("tlm: two faults on one message act in the order given", "[cli][tlm][faults]") {
  every_pair("tlm", 100 + 2 + 1 + 63);
}

TEST_CASE("rtl: two faults on one message act in the order given", "[cli][rtl][faults]") {
  every_pair("rtl", 100 + 2 + 1 + 63);
}
#endif

TEST_CASE("a fault given twice is refused: a copy would have nothing left to act on",
          "[cli][faults]") {
  for (const std::string f : {"drop=0->1#1", "corrupt=0->1#1", "link=0-1@5", "stall=1@0+5"}) {
    const auto r = tessera::test::run_cli(
        {"run", "--fabric", "ring:4", "--collective", "bcast", "--fault", f, "--fault", f});
    CHECK(r.code == 2);
    CHECK(r.err == "tessera: the fault " + f +
                       " is given twice (--fault and --fault-file give each fault once)\n");
  }
}
