#include "fifo_dut.hpp"

#include <array>

#include <Vtsr_fifo_d1.h>
#include <Vtsr_fifo_d4.h>

namespace tessera::tb {
namespace {

template <class Model>
class verilated_fifo final : public fifo_dut {
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
std::unique_ptr<fifo_dut> make(VerilatedContext& context) {
  return std::make_unique<verilated_fifo<Model>>(Depth, context);
}

struct model_entry {
  unsigned depth;
  std::unique_ptr<fifo_dut> (*make)(VerilatedContext&);
};

// Must match the depths verilate() is called with.
constexpr std::array models{
    model_entry{4, &make<Vtsr_fifo_d4, 4>},
    model_entry{1, &make<Vtsr_fifo_d1, 1>},
};

}  // namespace

std::vector<unsigned> fifo_depths() {
  std::vector<unsigned> depths;
  for (const model_entry& entry : models)
    depths.push_back(entry.depth);
  return depths;
}

std::unique_ptr<fifo_dut> make_fifo_dut(unsigned depth, VerilatedContext& context) {
  for (const model_entry& entry : models) {
    if (entry.depth == depth) return entry.make(context);
  }
  return nullptr;
}

}  // namespace tessera::tb
