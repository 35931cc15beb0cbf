#include "tessera/rtl_tops/fifo_top.hpp"

#include <array>

#include <Vtsr_fifo_d1.h>
#include <Vtsr_fifo_d4.h>

#include "tessera/rtl_tops/limits.hpp"

namespace tessera::rtl_tops {
namespace {

template <class Model>
class verilated_fifo final : public fifo_top {
 public:
  verilated_fifo(unsigned depth, VerilatedContext& context)
      : depth_(depth),
        model_(std::make_unique<Model>(&context, "dut")),
        pins_{model_->clk_i,   model_->rst_ni,  model_->valid_i, model_->ready_o, model_->data_i,
              model_->valid_o, model_->ready_i, model_->data_o,  model_->usage_o} {}

  fifo_pins& pins() override { return pins_; }
  unsigned depth() const override { return depth_; }
  void eval() override { model_->eval(); }
  void final() override { model_->final(); }
#if TESSERA_RTL_TRACE_FST
  void trace(VerilatedFstC& fst, int levels) override {
    model_->trace(&fst, levels);
  }
#endif

 private:
  unsigned depth_;
  std::unique_ptr<Model> model_;
  fifo_pins pins_;
};

template <class Model, unsigned Depth>
std::unique_ptr<fifo_top> make(VerilatedContext& context) {
  return std::make_unique<verilated_fifo<Model>>(Depth, context);
}

struct model_entry {
  unsigned depth;
  std::unique_ptr<fifo_top> (*make)(VerilatedContext&);
};

// The model class of each entry of fifo_tops, in its order.
constexpr std::array models{
    model_entry{fifo_tops[0].depth, &make<Vtsr_fifo_d4, fifo_tops[0].depth>},
    model_entry{fifo_tops[1].depth, &make<Vtsr_fifo_d1, fifo_tops[1].depth>},
};
static_assert(models.size() == fifo_tops.size());
static_assert(fifo_tops[0].model == "Vtsr_fifo_d4" && fifo_tops[1].model == "Vtsr_fifo_d1");

}  // namespace

std::vector<unsigned> fifo_depths() {
  std::vector<unsigned> depths;
  for (const model_entry& entry : models)
    depths.push_back(entry.depth);
  return depths;
}

std::unique_ptr<fifo_top> make_fifo_top(unsigned depth, VerilatedContext& context) {
  for (const model_entry& entry : models) {
    if (entry.depth == depth) return entry.make(context);
  }
  return nullptr;
}

}  // namespace tessera::rtl_tops
