// Network interface of a store-and-forward torus tile: cuts a message into packets and
// writes them into its node's local input, a whole packet (header and payload) a cycle,
// taking one credit (a free local buffer) per packet; passes the node's ejected packets
// to the tile.
//
// Timing: a message taken at cycle t (msg_valid_i and msg_ready_o) has its first packet
// written in cycle t when a local buffer is free and the tile has its payload there, so
// the message interface is combinational to the node. The node stores the packet, and
// may send it on, in the cycle it is written (tsr_torus_node), so a message posted at t
// over a free path of h hops is complete at its destination at t + h (beta + tau len):
// the cost of Bermond92 (Bermond, Michallon and Trystram, "Broadcasting
// in wraparound meshes with parallel monodirectional links"), with no injection phase.
// The next packet follows in the next cycle, and the NI takes the next message the
// cycle after the previous one's last packet went in: one packet a cycle in all. The
// start-up of a hop (beta) is the links' (tsr_torus_node), not the NI's.
module tsr_torus_ni #(
  /// Largest packet payload in bytes (the node's MaxBytes).
  parameter int unsigned MaxBytes = 64,
  /// Buffers of the node's local input (the node's Buffers): the NI's credits.
  parameter int unsigned Buffers = 4,
  /// Entries of the node's forwarding table (the node's Trees): a multicast message
  /// names one of them.
  parameter int unsigned Trees = 4,
  /// Width of a credit count; derived, do not override.
  localparam int unsigned CreditWidth = tsr_pkg::cnt_width(Buffers)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // This tile.
  input  logic [15:0]            tile_i,
  // A message.
  input  logic                   msg_valid_i,
  output logic                   msg_ready_o,
  input  tsr_pkg::torus_msg_t    msg_i,
  // The payload of the packet the NI writes next: bytes data_offset_o .. data_offset_o
  // + len - 1 of the message in bytes 0 .. len - 1 of data_i (byte b at data_i[b * 8 +:
  // 8]). data_ready_o: it went in this cycle.
  input  logic                   data_valid_i,
  input  logic [MaxBytes*8-1:0]  data_i,
  output logic [15:0]            data_offset_o,
  output logic                   data_ready_o,
  // Into the node's local input (the payload laid out as data_i's), and the local
  // buffers it frees (dateline class 0).
  output logic                   inj_valid_o,
  output tsr_pkg::torus_hdr_t    inj_hdr_o,
  output logic [MaxBytes*8-1:0]  inj_data_o,
  input  logic [CreditWidth-1:0] inject_credit_i,
  // The node's local output, handed to the tile (the tile always takes it).
  input  tsr_pkg::torus_link_t   eject_i,
  output tsr_pkg::torus_link_t   rx_o
);

  if (Buffers < 1 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_param_check
    $fatal(1, "tsr_torus_ni: Buffers must be at least 1 and MaxBytes 1..65535");
  end

  logic                   active_q;
  tsr_pkg::torus_msg_t    msg_q;
  logic [15:0]            sent_q;    // bytes of the message written
  logic [15:0]            pkt_q;     // packets of the message written
  logic                   room;      // a local buffer is free

  logic                take, live, write, last_of_msg;
  tsr_pkg::torus_msg_t m;
  logic [15:0] a_sent, a_pkt, plen, remaining;

  always_comb begin
    msg_ready_o = !active_q;
    take        = !active_q && msg_valid_i;
    live        = active_q || take;
    m           = active_q ? msg_q : msg_i;
    a_sent      = active_q ? sent_q : '0;
    a_pkt       = active_q ? pkt_q : '0;
    remaining   = m.len - a_sent;
    // The length of the next packet: packet_bytes, or what is left.
    plen        = (m.packet_bytes != '0 && m.packet_bytes < remaining) ? m.packet_bytes
                                                                       : remaining;
    // A packet needs a free local buffer and its payload.
    write       = live && room && data_valid_i;
    last_of_msg = write && 32'(a_sent) + 32'(plen) >= 32'(m.len);

    inj_valid_o          = write;
    inj_hdr_o            = '0;
    inj_hdr_o.src        = tile_i;
    inj_hdr_o.dst        = m.dst;
    inj_hdr_o.multicast  = m.multicast;
    inj_hdr_o.tree       = m.tree;
    inj_hdr_o.seq        = m.seq + a_pkt;
    inj_hdr_o.len        = plen;
    inj_data_o           = data_i;
    data_offset_o        = a_sent;
    data_ready_o         = write;
    rx_o                 = eject_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      msg_q    <= '0;
      sent_q   <= '0;
      pkt_q    <= '0;
    end else begin
      if (take) begin
        active_q <= 1'b1;
        msg_q    <= msg_i;
      end
      if (live) begin
        sent_q <= a_sent + (write ? plen : '0);
        pkt_q  <= a_pkt + 16'(write);
        if (last_of_msg) active_q <= 1'b0;
      end
    end
  end

  // The credits of the node's local input: a packet takes a buffer.
  tsr_credit_counter #(.MaxCredits(Buffers), .GiveWidth(CreditWidth)) i_credits (
    .clk_i,
    .rst_ni,
    .limit_i (CreditWidth'(Buffers)),
    .take_i  (write),
    .give_i  (inject_credit_i),
    .avail_o (room),
    .used_o  ()  // the load matters to the mesh route select only
  );

`ifndef SYNTHESIS
  // Immediate assertions, clocked like the registers (asynchronous reset), so rst_ni is
  // used one way only.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      MsgInRange_A: assert (!(take && (msg_i.len == '0 || 32'(msg_i.packet_bytes) > MaxBytes ||
                                       (msg_i.packet_bytes == '0 && 32'(msg_i.len) > MaxBytes) ||
                                       (msg_i.multicast && 32'(msg_i.tree) >= Trees))))
        else $error("tsr_torus_ni: tile %0d: %0d bytes in packets of %0d (MaxBytes %0d), %s %0d of %0d",
                    tile_i, msg_i.len, msg_i.packet_bytes, MaxBytes,
                    msg_i.multicast ? "tree" : "unicast, tree field", msg_i.tree, Trees);
    end
  end
`endif

endmodule
