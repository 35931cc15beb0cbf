// A delay of one input port: tells, per VC FIFO of the port, whether its front flit
// arrived at least delay_i cycles ago (docs/wormhole.md rule 3: a head that arrived at c
// may leave at c + r at the earliest; the delay overlaps a wait behind earlier packets in
// the FIFO). The router uses one for its heads' delay and one for every flit's pipeline.
//
// A port takes at most one flit per cycle, so its arrivals fit a ring of Slots slots, one
// per cycle modulo Slots: the slot of cycle c records whether a flit was pushed in c and
// into which VC. That flit is in its FIFO from c + 1 and comes of age in c + 1 + delay_i,
// when the ring reads the slot again (delay_i < Slots). Arrival order is FIFO order, so
// the young flits of a VC are its newest ones: `young` counts them, and the front is of
// age when the VC holds more flits than young ones, or when the flit coming of age now
// is the front. A young flit that leaves first (a body flit, which pays no delay) is
// counted in `gone`, so that its slot, read later, is skipped: the slots of a VC come of
// age oldest first, and the gone flits were its oldest young ones.
module tsr_mesh_delay
#(
  /// VC FIFOs of the port, 1..MeshMaxVcs.
  parameter int unsigned VCs = 2,
  /// Slots of each VC FIFO (their Depth), at least 1.
  parameter int unsigned Depth = 4,
  /// Cycles the ring remembers, a power of two from 2 to 256: delay_i < Slots.
  parameter int unsigned Slots = 256,
  /// Width of usage_i; derived from Depth, do not override.
  localparam int unsigned UsageWidth = tsr_pkg::cnt_width(Depth),
  /// Width of delay_i and of a ring index; derived from Slots, do not override.
  localparam int unsigned SlotBits = $clog2(Slots)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // The delay, held from reset on.
  input  logic [SlotBits-1:0]   delay_i,
  // A flit enters the FIFO of VC push_vc_i this cycle.
  input  logic                  push_i,
  input  tsr_pkg::mesh_vc_t              push_vc_i,
  // Per VC FIFO: its front leaves this cycle, and the flits it holds.
  input  logic [VCs-1:0]        pop_i,
  input  logic [VCs*UsageWidth-1:0] usage_i,  // VC v's at [v * UsageWidth +: UsageWidth]
  // Per VC FIFO: its front arrived at least delay_i cycles ago.
  output logic [VCs-1:0]        due_o
);

  if (VCs < 1 || VCs > tsr_pkg::MeshMaxVcs) begin : gen_vcs_check
    $fatal(1, "tsr_mesh_delay: VCs must be 1..4");
  end
  if (Depth < 1) begin : gen_depth_check
    $fatal(1, "tsr_mesh_delay: Depth must be at least 1");
  end
  if (Slots < 2 || Slots > 256 || (Slots & (Slots - 1)) != 0) begin : gen_slots_check
    $fatal(1, "tsr_mesh_delay: Slots must be a power of two from 2 to 256");
  end

  // An arrival: a flit was pushed, into this VC.
  typedef struct packed {
    logic       pushed;
    logic [1:0] vc;
  } arrival_t;

  localparam int unsigned GoneWidth = tsr_pkg::cnt_width(Slots);

  // Per VC v, its young flits at [v * UsageWidth +: UsageWidth] and its gone ones at
  // [v * GoneWidth +: GoneWidth].
  logic [SlotBits-1:0]           now_d, now_q;  // this cycle, modulo Slots
  logic [SlotBits:0]             seen_d, seen_q;  // cycles since reset, up to Slots
  // An arrival_t per slot. The ring is not reset (a RAM on an FPGA): a slot read before
  // the cycle that writes it has come is ignored (seen_q).
  logic [2:0]                    ring_q [Slots];
  logic [VCs*UsageWidth-1:0]     young_d, young_q;
  logic [VCs*GoneWidth-1:0]      gone_d, gone_q;

  arrival_t       ripe;        // the arrival coming of age this cycle
  logic [VCs-1:0] ripe_young;  // ... is VC v's oldest young flit still in its FIFO
  logic [VCs-1:0] ripe_gone;   // ... is one of VC v's flits that left young
  logic [VCs-1:0] all_young;   // every flit of VC v is young: its front is

  always_comb begin
    // The slot of cycle now - 1 - delay_i, which has come once more than delay_i cycles
    // have passed since reset.
    ripe = ring_q[now_q - SlotBits'(1) - delay_i];
    if (seen_q <= {1'b0, delay_i}) ripe = '0;
    for (int unsigned v = 0; v < VCs; v++) begin
      ripe_young[v] = ripe.pushed && 32'(ripe.vc) == v && gone_q[v*GoneWidth+:GoneWidth] == '0;
      ripe_gone[v]  = ripe.pushed && 32'(ripe.vc) == v && gone_q[v*GoneWidth+:GoneWidth] != '0;
      all_young[v]  = young_q[v*UsageWidth+:UsageWidth] == usage_i[v*UsageWidth+:UsageWidth];
      due_o[v]      = young_q[v*UsageWidth+:UsageWidth] < usage_i[v*UsageWidth+:UsageWidth] ||
                      ripe_young[v];
    end
  end

  always_comb begin
    now_d  = now_q + SlotBits'(1);
    seen_d = seen_q == (SlotBits + 1)'(Slots) ? seen_q : seen_q + (SlotBits + 1)'(1);
    for (int unsigned v = 0; v < VCs; v++) begin
      // The front leaves young when it has not come of age by this cycle.
      young_d[v*UsageWidth+:UsageWidth] =
          young_q[v*UsageWidth+:UsageWidth] + UsageWidth'(push_i && 32'(push_vc_i) == v)
          - UsageWidth'(ripe_young[v] || (pop_i[v] && all_young[v]));
      gone_d[v*GoneWidth+:GoneWidth] =
          gone_q[v*GoneWidth+:GoneWidth] + GoneWidth'(pop_i[v] && all_young[v] && !ripe_young[v])
          - GoneWidth'(ripe_gone[v]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_q   <= '0;
      seen_q  <= '0;
      young_q <= '0;
      gone_q  <= '0;
    end else begin
      now_q         <= now_d;
      seen_q        <= seen_d;
      ring_q[now_q] <= {push_i, push_vc_i};
      young_q       <= young_d;
      gone_q        <= gone_d;
    end
  end

`ifndef SYNTHESIS
  // The VCs with more young flits than flits: one assertion over the vector, as Yosys
  // names an assertion once, not once per loop index.
  /* verilator coverage_off */  // checks only: no toggle points
  logic [VCs-1:0] chk_too_young;
  /* verilator coverage_on */
  always_comb begin
    for (int unsigned v = 0; v < VCs; v++) begin
      chk_too_young[v] = young_q[v*UsageWidth+:UsageWidth] > usage_i[v*UsageWidth+:UsageWidth];
    end
  end

  // Immediate assertions at the clock edge: no per-evaluation sampling in a Verilated
  // model.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      YoungInFifo_A: assert (chk_too_young == '0)
        else $error("tsr_mesh_delay: VCs %b have more young flits than flits", chk_too_young);
    end
  end
`endif

endmodule
