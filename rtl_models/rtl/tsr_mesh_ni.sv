// Network interface of a wormhole mesh tile: cuts a message into packets of flits and
// injects them into its router's local input VCs within credits, after the message's
// start-up and at the tile's injection pace; passes the router's ejected flits to the
// tile.
//
// Timing, rule 8 of docs/wormhole.md: a message taken at cycle t (msg_valid_i and
// msg_ready_o) puts its first head on the injection channel at t + alpha_i at the
// earliest; then at most one flit every gap_i cycles (inject_gap g), across its packets,
// while it has credits and payload words. A head takes the lowest VC in use with a free
// slot in the local input; the packet's other flits follow it into that VC. The NI takes
// the next message the cycle after the last flit went, and that message's first flit is
// not paced against it. With alpha_i = 0 the first flit may cross in cycle t itself, so
// the message interface is combinational to the router.
//
// Ejection: the router's local output carries a flit in cycle t only if the tile was
// ready for it, which it says one cycle ahead (rx_ready_i in t - 1). The registered
// readiness keeps the tile's inputs out of the routers' arbitration logic, which a
// Verilated model would otherwise evaluate again whenever the testbench sets an input.
module tsr_mesh_ni
#(
  /// Mesh rows, 1..MeshMaxSide (checks messages' destinations).
  parameter int unsigned Rows = 8,
  /// Mesh columns, 1..MeshMaxSide.
  parameter int unsigned Cols = 8,
  /// Virtual channels of the router's local input, 1..MeshMaxVcs (its VCs).
  parameter int unsigned VCs = 2,
  /// Flit slots per VC of the router's local input (its BufferDepth), 1..1024.
  parameter int unsigned BufferDepth = 4,
  /// Payload bits of a flit, at least 1.
  parameter int unsigned DataWidth = 32,
  /// Bits of a flit, {ctl, data} (tsr_pkg); derived, do not override.
  localparam int unsigned FlitBits = tsr_pkg::MeshCtlBits + DataWidth
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // This tile.
  input  tsr_pkg::mesh_coord_t    here_i,
  // Run-time settings, held from reset on: start-up cycles per message (alpha), cycles
  // per injected flit (inject_gap, at least 1), VCs in use and usable slots per VC.
  input  logic [15:0]    alpha_i,
  input  logic [15:0]    gap_i,
  input  logic [2:0]     vcs_i,
  input  logic [15:0]    depth_i,
  // A message: destination, total flits (at least 1) and flits per packet (0: one
  // packet). The last packet carries the remainder.
  input  logic           msg_valid_i,
  output logic           msg_ready_o,
  input  tsr_pkg::mesh_coord_t    msg_dst_i,
  input  logic [15:0]    msg_flits_i,
  input  logic [15:0]    msg_packet_flits_i,
  // The message's payload, a word per flit, taken when data_ready_o is high.
  input  logic           data_valid_i,
  input  logic [DataWidth-1:0] data_i,
  output logic           data_ready_o,
  // Injection channel into the router's local input VCs, and their credits.
  output logic           inject_valid_o,
  output logic [FlitBits-1:0] inject_flit_o,
  input  logic [VCs-1:0] inject_credit_i,
  // Ejection: the router's local output, handed to the tile. rx_ready_i in cycle t lets
  // the router eject a flit in t + 1.
  input  logic           eject_valid_i,
  input  logic [FlitBits-1:0] eject_flit_i,
  output logic           eject_ready_o,
  output logic           rx_valid_o,
  output logic [FlitBits-1:0] rx_flit_o,
  input  logic           rx_ready_i
);

  if (Rows < 1 || Rows > tsr_pkg::MeshMaxSide || Cols < 1 || Cols > tsr_pkg::MeshMaxSide) begin : gen_shape_check
    $fatal(1, "tsr_mesh_ni: Rows and Cols must be 1..64");
  end
  if (VCs < 1 || VCs > tsr_pkg::MeshMaxVcs) begin : gen_vcs_check
    $fatal(1, "tsr_mesh_ni: VCs must be 1..4");
  end
  if (BufferDepth < 1 || BufferDepth > 1024) begin : gen_depth_check
    $fatal(1, "tsr_mesh_ni: BufferDepth must be 1..1024");
  end

  localparam int unsigned VcIdxWidth = tsr_pkg::idx_width(VCs);

  logic                        active_d, active_q;  // a message is being sent
  logic [15:0]                 wait_d, wait_q;      // start-up cycles left
  logic [15:0]                 gap_d, gap_q;        // cycles until the next flit may go
  tsr_pkg::mesh_coord_t                 dst_d, dst_q;
  logic [15:0]                 packet_d, packet_q;  // flits per packet, 0: one packet
  logic [15:0]                 left_d, left_q;      // flits of the message not yet sent
  logic [15:0]                 in_pkt_d, in_pkt_q;  // ... of the packet; 0: a head next
  logic [VcIdxWidth-1:0]       vc_d, vc_q;          // the local input VC the packet holds
  logic                        odd_d, odd_q;        // the next packet is odd-numbered here
  logic                        rx_ready_q;          // the tile takes a flit this cycle

  // The message in hand: the registered one, or the one offered this cycle.
  logic           take, may, head, head_ok, emit;
  logic [15:0]    a_left, a_packet, a_in_pkt;
  logic [VCs-1:0] vc_slot, head_vcs;
  logic [VCs-1:0] credit;  // per local input VC: a credit left
  logic [VcIdxWidth-1:0] head_vc, flit_vc;
  tsr_pkg::mesh_ctl_t    inject_ctl;  // the injected flit's control fields

  always_comb begin
    msg_ready_o = !active_q;
    take        = !active_q && msg_valid_i;
    // The start-up has passed and the pace allows a flit (a new message is not paced
    // against the last).
    may      = active_q ? (wait_q == '0 && gap_q == '0) : (msg_valid_i && alpha_i == '0);
    a_left   = active_q ? left_q : msg_flits_i;
    a_packet = active_q ? packet_q : msg_packet_flits_i;
    head     = !active_q || in_pkt_q == '0;
    // A head starts a packet of `packet` flits, or of what is left of the message.
    a_in_pkt = !head ? in_pkt_q : (a_packet == '0 || a_packet > a_left) ? a_left : a_packet;
    // A head takes the lowest VC in use with a slot; the rest of its packet follows it.
    for (int unsigned v = 0; v < VCs; v++) begin
      vc_slot[v]  = credit[v];
      head_vcs[v] = vc_slot[v] && v < 32'(vcs_i);
    end
    head_ok = head_vcs != '0;
    head_vc = '0;
    for (int v = VCs - 1; v >= 0; v--) begin
      if (head_vcs[v]) head_vc = VcIdxWidth'(v);
    end
    flit_vc = head ? head_vc : vc_q;
    emit    = may && data_valid_i && (head ? head_ok : vc_slot[vc_q]);

    data_ready_o           = emit;
    inject_valid_o         = emit;
    inject_ctl.head        = head;
    inject_ctl.tail        = a_in_pkt == 16'd1;
    inject_ctl.odd         = odd_q;
    inject_ctl.vc          = 2'(flit_vc);
    inject_ctl.dst         = active_q ? dst_q : msg_dst_i;
    inject_ctl.src         = here_i;
    inject_flit_o          = {inject_ctl, data_i};
    // Ejection is a pass-through, with the readiness the tile gave a cycle ahead.
    rx_valid_o    = eject_valid_i;
    rx_flit_o     = eject_flit_i;
    eject_ready_o = rx_ready_q;
  end

  always_comb begin
    active_d = active_q;
    wait_d   = (wait_q != '0) ? wait_q - 1'b1 : '0;
    gap_d    = (gap_q != '0) ? gap_q - 1'b1 : '0;
    dst_d    = dst_q;
    packet_d = packet_q;
    left_d   = left_q;
    in_pkt_d = in_pkt_q;
    vc_d     = vc_q;
    odd_d    = odd_q;
    if (take) begin
      active_d = 1'b1;
      wait_d   = (alpha_i != '0) ? alpha_i - 1'b1 : '0;
      gap_d    = '0;
      dst_d    = msg_dst_i;
      packet_d = msg_packet_flits_i;
      left_d   = msg_flits_i;
      in_pkt_d = '0;
    end
    if (emit) begin
      left_d   = a_left - 1'b1;
      in_pkt_d = a_in_pkt - 1'b1;
      vc_d     = flit_vc;
      // Packets alternate between O1TURN's classes, counted over all messages.
      if (head) odd_d = !odd_q;
      // The next flit of this message goes gap_i cycles after this one at the earliest.
      gap_d    = gap_i - 1'b1;
      if (a_left == 16'd1) active_d = 1'b0;
    end
  end

  // Credits of the router's local input VC FIFOs: depth_i slots each.
  tsr_credit_counter #(.Channels(VCs), .MaxCredits(BufferDepth), .LimitWidth(16)) i_credits (
    .clk_i,
    .rst_ni,
    .limit_i (depth_i),
    .take_i  (VCs'(emit) << flit_vc),
    .give_i  (inject_credit_i),
    .avail_o (credit),
    .used_o  ()  // the load matters to route select only
  );

  // Sampled at every edge, reset or not: the tile's readiness for the first cycle after
  // reset is the value it gives during reset.
  always_ff @(posedge clk_i) begin
    rx_ready_q <= rx_ready_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      wait_q   <= '0;
      gap_q    <= '0;
      dst_q    <= '0;
      packet_q <= '0;
      left_q   <= '0;
      in_pkt_q <= '0;
      vc_q     <= '0;
      odd_q    <= 1'b0;
    end else begin
      active_q <= active_d;
      wait_q   <= wait_d;
      gap_q    <= gap_d;
      dst_q    <= dst_d;
      packet_q <= packet_d;
      left_q   <= left_d;
      in_pkt_q <= in_pkt_d;
      vc_q     <= vc_d;
      odd_q    <= odd_d;
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at the clock edge: a concurrent assertion makes a Verilated model
  // copy its signals at every evaluation (and Verilator 5.006 generates code that does not
  // compile when one samples a top-level unpacked array port such as msg_flits_i).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (take) begin
        MsgHasFlits_A: assert (msg_flits_i != '0)
          else $error("tsr_mesh_ni: tile (%0d, %0d) offered a message of 0 flits",
                      here_i.row, here_i.col);
        DstInMesh_A: assert (32'(msg_dst_i.row) < Rows && 32'(msg_dst_i.col) < Cols)
          else $error("tsr_mesh_ni: tile (%0d, %0d) offered a message for (%0d, %0d), outside the mesh",
                      here_i.row, here_i.col, msg_dst_i.row, msg_dst_i.col);
      end
      GapPositive_A: assert (gap_i != '0)
        else $error("tsr_mesh_ni: tile (%0d, %0d) has inject_gap 0", here_i.row, here_i.col);
    end
  end
`endif

endmodule
