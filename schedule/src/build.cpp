#include "tessera/schedule/build.hpp"

#include <string>
#include <vector>

namespace tessera {

schedule build_alltoall(fw::a2a_algorithm alg, const fabric& f, std::uint64_t block_bytes) {
  schedule s;
  s.tiles = f.tiles();
  s.collective = "alltoall";
  s.algorithm = std::string(fw::info(alg).name);
  s.block_bytes = block_bytes;
  s.delivery = alltoall_delivery(f.tiles());
  s.programs.resize(f.tiles());

  for (std::uint32_t t = 0; t < f.tiles(); ++t) {
    fw::a2a_generator gen(alg, f, tile_id{t});
    std::vector<block_id> send(gen.max_blocks());
    std::vector<block_id> recv(gen.max_blocks());
    std::vector<std::uint32_t> send_ids;
    std::vector<std::uint32_t> recv_ids;
    op o;
    while (gen.next(o, send, recv)) {
      send_ids.clear();
      recv_ids.clear();
      for (std::uint32_t i = 0; i < o.send_count; ++i)
        send_ids.push_back(send[i].value());
      for (std::uint32_t i = 0; i < o.recv_count; ++i)
        recv_ids.push_back(recv[i].value());
      const sched_op so{.kind = o.kind,
                        .step = o.step,
                        .to = o.to,
                        .from = o.from,
                        .send_bytes = o.send_count * block_bytes,
                        .recv_bytes = o.recv_count * block_bytes,
                        .count = o.count,
                        .flags = o.flags};
      s.programs[t].add(so, send_ids, recv_ids);
    }
  }
  return s;
}

}  // namespace tessera
