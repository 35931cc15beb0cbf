// Network interface of a store-and-forward torus tile: cuts a message into packets and
// feeds them into its node's local input, a byte per cycle with each packet's header
// beside its first byte, taking one credit (a free local buffer) per packet; passes
// the node's ejected packets to the tile.
//
// Timing: a message taken at cycle t (msg_valid_i and msg_ready_o) puts its first
// header and byte into the node in cycle t when a buffer is free and the byte is
// there, so the message interface is combinational to the node. A packet of L bytes
// is then complete in the node L cycles after its first byte went in, and the next
// packet follows at once. The NI takes the next message the cycle after the previous
// one's last byte. The start-up of a hop (beta) is the links' (tsr_torus_node), not
// the NI's.
module tsr_torus_ni
  import tsr_pkg::*;
#(
  /// Largest packet payload in bytes (the node's MaxBytes).
  parameter int unsigned MaxBytes = 64,
  /// Buffers of the node's local input (the node's Buffers): the NI's credits.
  parameter int unsigned Buffers = 4,
  /// Width of a credit count; derived, do not override.
  localparam int unsigned CreditWidth = cnt_width(Buffers)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // This tile.
  input  logic [15:0]            tile_i,
  // A message, and its payload a byte at a time (taken when data_ready_o is high).
  input  logic                   msg_valid_i,
  output logic                   msg_ready_o,
  input  torus_msg_t             msg_i,
  input  logic                   data_valid_i,
  input  logic [7:0]             data_i,
  output logic                   data_ready_o,
  // Into the node's local input, and the local buffers it frees (dateline class 0).
  output torus_link_t            inject_o,
  input  logic [CreditWidth-1:0] inject_credit_i,
  // The node's local output, handed to the tile (the tile always takes it).
  input  torus_link_t            eject_i,
  output torus_link_t            rx_o
);

  if (Buffers < 1 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_param_check
    $fatal(1, "tsr_torus_ni: Buffers must be at least 1 and MaxBytes 1..65535");
  end

  logic                   active_q;
  torus_msg_t             msg_q;
  logic [15:0]            sent_q;    // bytes of the message sent
  logic [15:0]            left_q;    // bytes of the current packet still to send; 0: none open
  logic [15:0]            pkt_q;     // packets of the message started
  logic [CreditWidth-1:0] room_q;

  logic       take, live, open_pkt, start, emit, last_of_msg;
  torus_msg_t m;
  logic [15:0] a_sent, a_left, a_pkt, plen, remaining;

  always_comb begin
    msg_ready_o = !active_q;
    take        = !active_q && msg_valid_i;
    live        = active_q || take;
    m           = active_q ? msg_q : msg_i;
    a_sent      = active_q ? sent_q : '0;
    a_left      = active_q ? left_q : '0;
    a_pkt       = active_q ? pkt_q : '0;
    remaining   = m.len - a_sent;
    // The length of a packet started now: packet_bytes, or what is left.
    plen        = (m.packet_bytes != '0 && m.packet_bytes < remaining) ? m.packet_bytes
                                                                       : remaining;
    open_pkt    = a_left != '0;
    // A new packet needs a free local buffer; a byte of an open one does not.
    start       = live && !open_pkt && room_q != '0 && data_valid_i;
    emit        = live && data_valid_i && (open_pkt || start);
    last_of_msg = emit && 32'(a_sent) + 1 >= 32'(m.len);

    inject_o            = '0;
    inject_o.hdr_valid  = start;
    inject_o.hdr.src    = tile_i;
    inject_o.hdr.dst    = m.dst;
    inject_o.hdr.multicast = m.multicast;
    inject_o.hdr.tree   = m.tree;
    inject_o.hdr.seq    = m.seq + a_pkt;
    inject_o.hdr.len    = plen;
    inject_o.byte_valid = emit;
    inject_o.data       = data_i;
    data_ready_o        = emit;
    rx_o                = eject_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      msg_q    <= '0;
      sent_q   <= '0;
      left_q   <= '0;
      pkt_q    <= '0;
      room_q   <= CreditWidth'(Buffers);
    end else begin
      if (take) begin
        active_q <= 1'b1;
        msg_q    <= msg_i;
      end
      if (live) begin
        sent_q <= a_sent + 16'(emit);
        left_q <= start ? plen - 1'b1 : a_left - 16'(emit);
        pkt_q  <= a_pkt + 16'(start);
        if (last_of_msg) active_q <= 1'b0;
      end
      room_q <= room_q + inject_credit_i - CreditWidth'(start);
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions: Verilator 5.006 cannot sample a top-level unpacked array port
  // (msg_i once tsr_torus_top is flattened) in a concurrent one.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      MsgInRange_A: assert (!(take && (msg_i.len == '0 || 32'(msg_i.packet_bytes) > MaxBytes ||
                                       (msg_i.packet_bytes == '0 && 32'(msg_i.len) > MaxBytes))))
        else $error("tsr_torus_ni: tile %0d: message of %0d bytes in packets of %0d, MaxBytes %0d",
                    tile_i, msg_i.len, msg_i.packet_bytes, MaxBytes);
    end
  end
`endif

endmodule
