// Network interface of a wormhole mesh tile: cuts a message into packets of flits and
// injects them into its router's local input within credits, after the message's
// start-up; passes the router's ejected flits to the tile.
//
// Timing, rule 8 of docs/wormhole.md with g = 1: a message taken at cycle t (msg_valid_i
// and msg_ready_o) puts its first head flit on the injection channel at t + alpha_i at
// the earliest, then one flit per cycle while it has credits and payload words; the
// packets of a message follow each other with no gap. The NI takes the next message the
// cycle after the previous one's last flit crossed. With alpha_i = 0 the first flit may
// cross in cycle t itself, so the message interface is combinational to the router.
module tsr_mesh_ni
  import tsr_pkg::*;
#(
  /// Payload bits per flit (the router's FlitWidth).
  parameter int unsigned FlitWidth = 32,
  /// Flits of the router's local input FIFO (its BufferDepth): the NI's credits.
  parameter int unsigned BufferDepth = 4,
  /// Bits of a flit; derived, do not override.
  localparam int unsigned FlitBits = MeshCtlBits + FlitWidth
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This tile.
  input  logic [15:0]          tile_i,
  // Start-up cycles per message (alpha).
  input  logic [15:0]          alpha_i,
  // A message: destination, total flits (at least 1) and flits per packet (0: one
  // packet). The last packet carries the remainder.
  input  logic                 msg_valid_i,
  output logic                 msg_ready_o,
  input  logic [15:0]          msg_dst_i,
  input  logic [15:0]          msg_flits_i,
  input  logic [15:0]          msg_packet_flits_i,
  // The message's payload, a word per flit, taken when data_ready_o is high.
  input  logic                 data_valid_i,
  input  logic [FlitWidth-1:0] data_i,
  output logic                 data_ready_o,
  // Injection channel into the router's local input, and its credits.
  output logic                 inject_valid_o,
  output logic [FlitBits-1:0]  inject_flit_o,
  input  logic                 inject_credit_i,
  // Ejection: the router's local output, handed to the tile.
  input  logic                 eject_valid_i,
  input  logic [FlitBits-1:0]  eject_flit_i,
  output logic                 eject_ready_o,
  output logic                 rx_valid_o,
  output logic [FlitBits-1:0]  rx_flit_o,
  input  logic                 rx_ready_i
);

  if (BufferDepth < 1 || BufferDepth > 1024) begin : gen_depth_check
    $fatal(1, "tsr_mesh_ni: BufferDepth must be 1..1024");
  end

  localparam int unsigned CntWidth = cnt_width(BufferDepth);

  logic                active_q;   // a message is being sent
  logic [15:0]         wait_q;     // start-up cycles left
  logic [15:0]         dst_q, flits_q, packet_q;
  logic [15:0]         sent_q;     // flits of the message sent
  logic [15:0]         in_pkt_q;   // flits of the current packet sent
  logic [CntWidth-1:0] room_q;

  // The message in hand: the registered one, or the one offered this cycle.
  logic        take;
  logic [15:0] a_wait, a_dst, a_flits, a_packet, a_sent, a_in_pkt;
  logic        emit, last_of_packet, last_of_msg;
  mesh_ctl_t   ctl;

  always_comb begin
    msg_ready_o = !active_q;
    take        = !active_q && msg_valid_i;
    a_wait      = active_q ? wait_q : alpha_i;
    a_dst       = active_q ? dst_q : msg_dst_i;
    a_flits     = active_q ? flits_q : msg_flits_i;
    a_packet    = active_q ? packet_q : msg_packet_flits_i;
    a_sent      = active_q ? sent_q : '0;
    a_in_pkt    = active_q ? in_pkt_q : '0;
    emit        = (active_q || take) && a_wait == '0 && room_q != '0 && data_valid_i;
    last_of_msg    = 32'(a_sent) + 1 >= 32'(a_flits);
    last_of_packet = last_of_msg || (a_packet != '0 && 32'(a_in_pkt) + 1 == 32'(a_packet));
    ctl.head = a_in_pkt == '0;
    ctl.tail = last_of_packet;
    ctl.dst  = a_dst;
    ctl.src  = tile_i;
    data_ready_o   = emit;
    inject_valid_o = emit;
    inject_flit_o  = {ctl, data_i};
    // Ejection is a pass-through: the tile's readiness is the ejection channel's.
    rx_valid_o    = eject_valid_i;
    rx_flit_o     = eject_flit_i;
    eject_ready_o = rx_ready_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      wait_q   <= '0;
      dst_q    <= '0;
      flits_q  <= '0;
      packet_q <= '0;
      sent_q   <= '0;
      in_pkt_q <= '0;
      room_q   <= CntWidth'(BufferDepth);
    end else begin
      if (take) begin
        active_q <= 1'b1;
        dst_q    <= msg_dst_i;
        flits_q  <= msg_flits_i;
        packet_q <= msg_packet_flits_i;
      end
      if (active_q || take) begin
        if (a_wait != '0) begin
          wait_q   <= a_wait - 1'b1;
          sent_q   <= a_sent;
          in_pkt_q <= a_in_pkt;
        end else begin
          wait_q   <= '0;
          sent_q   <= a_sent + 16'(emit);
          in_pkt_q <= (emit && last_of_packet) ? '0 : a_in_pkt + 16'(emit);
          if (emit && last_of_msg) active_q <= 1'b0;
        end
      end
      room_q <= room_q + CntWidth'(inject_credit_i) - CntWidth'(emit);
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at the clock edge: Verilator 5.006 generates code that does not
  // compile when a concurrent assertion samples a top-level unpacked array port, which
  // msg_flits_i becomes once tsr_mesh_top is flattened.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      MsgHasFlits_A: assert (!(msg_valid_i && msg_ready_o && msg_flits_i == '0))
        else $error("tsr_mesh_ni: tile %0d offered a message of 0 flits", tile_i);
      RxHandshake_A: assert (!(rx_valid_o && !rx_ready_i))
        else $error("tsr_mesh_ni: tile %0d ejected a flit it was not ready for", tile_i);
    end
  end
`endif

endmodule
