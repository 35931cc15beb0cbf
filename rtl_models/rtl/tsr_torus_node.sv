// One node of a store-and-forward torus with parallel monodirectional ports
// (002_99346807104d0b95.txt §1.1; the TLM torus engine of docs/tlm.md): four input and
// four output links plus a local port, all running at once. A packet is stored whole
// in an input buffer before it goes on; a hop then holds its output link for exactly
// beta + tau * len cycles: the header in the first cycle, payload byte k in cycle
// beta + tau * (k + 1) - 1. The receiving node has the packet complete in the next
// cycle and may start the next hop in that same cycle, so h hops take h (beta + tau len)
// and q packets pipelined down a tree of depth h take (h + q - 1)(beta + tau len).
//
// Routing: a unicast packet goes dimension order (columns first, the shorter way round,
// ties east/south), a multicast packet to every port of its tree's forwarding entry
// (bit TorusLocal delivers it here). A packet leaves on each of its ports in the order
// it arrived on its input, so a tree's packets stay in order. Flow control is by
// credits: an output starts a hop only while the neighbour's input has a free buffer.
//
// Deadlock: dimension order alone can fill the buffers round a ring in a cycle. Each
// link input's buffers are split into two dateline classes (Dally and Seitz): a unicast
// packet sits in class 1 once its route in the current dimension has wrapped round the
// ring (crossed from the last column to column 0 or back, likewise rows), in class 0
// before. A class-1 packet never wraps again in that dimension, so no cycle of waits
// closes. Multicast packets stay in class 0: a tree's edges point away from its root.
module tsr_torus_node
  import tsr_pkg::*;
#(
  /// Torus rows.
  parameter int unsigned Rows = 4,
  /// Torus columns.
  parameter int unsigned Cols = 4,
  /// Packet buffers per input port, at least 2: ceil(Buffers / 2) of dateline class 0,
  /// the rest of class 1 (the local input's all serve class 0).
  parameter int unsigned Buffers = 4,
  /// Largest payload in bytes, at least 1.
  parameter int unsigned MaxBytes = 64,
  /// Entries of the multicast forwarding table, 1..16.
  parameter int unsigned Trees = 4,
  /// Width of the credit counts; derived, do not override.
  localparam int unsigned CreditWidth = cnt_width(Buffers)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // This node's place (ties: one module serves every node of a torus).
  input  logic [15:0]            row_i,
  input  logic [15:0]            col_i,
  // Start-up cycles of a hop (beta) and cycles per payload byte (tau), both >= 1;
  // inputs so one model serves every timing a testbench checks.
  input  logic [15:0]            beta_i,
  input  logic [7:0]             tau_i,
  // Inputs: the four links from the neighbours and the local injection port.
  input  torus_link_t            in_i     [TorusPorts],
  // Buffers freed this cycle, per input and dateline class, back to the sender.
  output logic [1:0][CreditWidth-1:0] credit_o [TorusPorts],
  // Outputs: the four links to the neighbours and the local ejection port.
  output torus_link_t            out_o    [TorusPorts],
  // Observability: input i completed, this cycle, a packet to be delivered here, whose
  // header is arrive_hdr_o[i]. A testbench times hops by it, free of the ejection queue.
  output logic [TorusPorts-1:0]  arrive_o,
  output torus_hdr_t             arrive_hdr_o [TorusPorts],
  // Observability: input i's oldest stored packet still owes outputs wait_ports_o[i]
  // and none of them took a packet from input i this cycle. A testbench's deadlock
  // report names what every node waits for.
  output logic [TorusPorts-1:0]  wait_o,
  output torus_hdr_t             wait_hdr_o   [TorusPorts],
  output logic [TorusPorts-1:0]  wait_ports_o [TorusPorts],
  // Buffers the neighbour freed this cycle, per output link and dateline class.
  input  logic [1:0][CreditWidth-1:0] credit_i [TorusLinks],
  // Forwarding table write: entry tbl_tree_i gets the port mask tbl_mask_i.
  input  logic                   tbl_we_i,
  input  logic [3:0]             tbl_tree_i,
  input  logic [TorusPorts-1:0]  tbl_mask_i
);

  if (Buffers < 2 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_buffer_check
    $fatal(1, "tsr_torus_node: Buffers must be at least 2 and MaxBytes 1..65535");
  end
  if (Rows < 2 || Cols < 2 || Rows * Cols > 65536) begin : gen_shape_check
    $fatal(1, "tsr_torus_node: needs 2 <= Rows, Cols and Rows * Cols <= 65536");
  end
  if (Trees < 1 || Trees > 16) begin : gen_tree_check
    $fatal(1, "tsr_torus_node: Trees must be 1..16");
  end

  localparam int unsigned SlotWidth = idx_width(Buffers);
  localparam int unsigned ByteWidth = idx_width(MaxBytes);
  localparam int unsigned WaitWidth = 17;  // beta_i + tau_i
  logic [15:0] me;
  assign me = 16'(32'(row_i) * Cols + 32'(col_i));
  localparam int unsigned TreeWidth = idx_width(Trees);
  // Slots [0, Class0) of a link input are dateline class 0, [Class0, Buffers) class 1.
  localparam int unsigned Class0 = Buffers - Buffers / 2;

  // ---- input buffers ----------------------------------------------------------------
  logic                  used_q  [TorusPorts][Buffers];  // allocated (filling or full)
  logic                  full_q  [TorusPorts][Buffers];  // every byte arrived
  torus_hdr_t            hdr_q   [TorusPorts][Buffers];
  logic [7:0]            mem_q   [TorusPorts][Buffers][MaxBytes];
  logic [TorusPorts-1:0] pend_q  [TorusPorts][Buffers];  // outputs still to send on
  // older_q[i][a][b]: slot a of input i was allocated before slot b.
  logic                  older_q [TorusPorts][Buffers][Buffers];
  logic [SlotWidth-1:0]  fill_q  [TorusPorts];
  logic [ByteWidth-1:0]  count_q [TorusPorts];
  logic [TorusPorts-1:0] fwd_q   [Trees];

  // ---- output serializers -----------------------------------------------------------
  logic                            busy_q [TorusPorts];
  logic [idx_width(TorusPorts)-1:0] src_q [TorusPorts];
  logic [SlotWidth-1:0]            slot_q [TorusPorts];
  logic [ByteWidth-1:0]            byte_q [TorusPorts];
  logic [WaitWidth-1:0]            wait_q [TorusPorts];
  logic [idx_width(TorusPorts)-1:0] rr_q  [TorusPorts];
  logic [1:0][CreditWidth-1:0]     room_q [TorusLinks];  // per link and class

  // The ports a header goes to from here.
  function automatic logic [TorusPorts-1:0] route(logic multicast, logic [3:0] tree,
                                                  logic [15:0] dst);
    logic [TorusPorts-1:0] m;
    int unsigned dr, dc, r, c;
    m = '0;
    if (multicast) begin
      if (int'(tree) < int'(Trees)) m = fwd_q[TreeWidth'(tree)];
    end else if (dst == me) begin
      m[TorusLocal] = 1'b1;
    end else begin
      r  = int'(dst) / Cols;
      c  = int'(dst) % Cols;
      dc = (c + Cols - int'(col_i)) % Cols;
      dr = (r + Rows - int'(row_i)) % Rows;
      if (dc != 0) m[(dc <= Cols / 2) ? TorusEast : TorusWest] = 1'b1;
      else m[(dr <= Rows / 2) ? TorusSouth : TorusNorth] = 1'b1;
    end
    return m;
  endfunction

  // The dateline class of a packet from src (multicast: from a root) in the input buffer of node (r, c) it
  // reached travelling in direction d: 1 once its route in that dimension wrapped. The
  // route in a dimension starts in the source's column (columns go first) or row, and
  // covers at most half the ring, so it has wrapped exactly when it has passed that
  // column or row from the far side.
  function automatic logic dl_class(logic multicast, logic [15:0] src, int unsigned r,
                                    int unsigned c, int unsigned d);
    int unsigned sr, sc;
    sr = int'(src) / Cols;
    sc = int'(src) % Cols;
    if (multicast) return 1'b0;
    case (d)
      TorusEast:  return c < sc;
      TorusWest:  return c > sc;
      TorusSouth: return r < sr;
      default:    return r > sr;
    endcase
  endfunction

  // Slot s of input i serves class k.
  function automatic logic in_class(int unsigned i, int unsigned s, logic k);
    if (i == TorusLocal) return k == 1'b0;
    return (s >= Class0) == k;
  endfunction

  // The class of a packet at the neighbour behind output o (travelling o).
  function automatic logic next_class(logic multicast, logic [15:0] src, int unsigned o);
    int unsigned r, c;
    r = int'(row_i);
    c = int'(col_i);
    case (o)
      TorusEast:  c = (c + 1) % Cols;
      TorusWest:  c = (c + Cols - 1) % Cols;
      TorusSouth: r = (r + 1) % Rows;
      default:    r = (r + Rows - 1) % Rows;
    endcase
    return dl_class(multicast, src, r, c, o);
  endfunction

  // Per input: the free slot a new header takes, where its bytes land.
  logic [SlotWidth-1:0] alloc   [TorusPorts];
  logic [SlotWidth-1:0] wslot   [TorusPorts];
  logic [ByteWidth-1:0] windex  [TorusPorts];
  logic                 wlast   [TorusPorts];
  logic                 no_room [TorusPorts];
  logic [TorusPorts-1:0] route_in [TorusPorts];  // where the packet being filled goes
  logic                  cls_in   [TorusPorts];  // the class an arriving header takes

  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      // Input i is fed by the neighbour in direction i, so its packets travel i ^ 1.
      cls_in[i]  = (i == TorusLocal) ? 1'b0
                 : dl_class(in_i[i].hdr.multicast, in_i[i].hdr.src, int'(row_i), int'(col_i),
                            i ^ 1);
      alloc[i]   = '0;
      no_room[i] = 1'b1;
      for (int s = Buffers - 1; s >= 0; s--) begin
        if (!used_q[i][s] && in_class(i, s, cls_in[i])) begin
          alloc[i]   = SlotWidth'(s);
          no_room[i] = 1'b0;
        end
      end
      wslot[i]  = in_i[i].hdr_valid ? alloc[i] : fill_q[i];
      route_in[i] = in_i[i].hdr_valid
                  ? route(in_i[i].hdr.multicast, in_i[i].hdr.tree, in_i[i].hdr.dst)
                  : route(hdr_q[i][fill_q[i]].multicast, hdr_q[i][fill_q[i]].tree,
                          hdr_q[i][fill_q[i]].dst);
      windex[i] = in_i[i].hdr_valid ? '0 : count_q[i];
      arrive_hdr_o[i] = in_i[i].hdr_valid ? in_i[i].hdr : hdr_q[i][fill_q[i]];
      wlast[i]  = in_i[i].byte_valid &&
                  (32'(windex[i]) + 1 ==
                   (in_i[i].hdr_valid ? 32'(in_i[i].hdr.len) : 32'(hdr_q[i][wslot[i]].len)));
      arrive_o[i] = wlast[i] && route_in[i][TorusLocal];
    end
  end

  // ---- arbitration: per output, the oldest slot of an input that wants it ------------
  // A packet may go when the neighbour has a free buffer of the class it will take
  // there. Packets of one stream (a source-destination pair, a tree) take one class, so
  // the oldest-first rule among the packets that may go keeps each stream in order.
  logic                 can_go [TorusPorts][TorusPorts][Buffers];  // [output][input][slot]
  logic                 go_cls [TorusPorts][TorusPorts][Buffers];
  logic                 want   [TorusPorts][TorusPorts];  // [output][input]
  logic [SlotWidth-1:0] want_s [TorusPorts][TorusPorts];
  logic                 grant  [TorusPorts];
  logic [idx_width(TorusPorts)-1:0] grant_in [TorusPorts];
  logic                 grant_cls [TorusPorts];

  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      for (int i = 0; i < TorusPorts; i++) begin
        for (int s = 0; s < Buffers; s++) begin
          go_cls[o][i][s] = (o == TorusLocal) ? 1'b0 : next_class(hdr_q[i][s].multicast,
                                                                 hdr_q[i][s].src, o);
          can_go[o][i][s] = full_q[i][s] && pend_q[i][s][o] &&
                            (o == TorusLocal || room_q[o % TorusLinks][go_cls[o][i][s]] != '0);
        end
      end
    end
    for (int o = 0; o < TorusPorts; o++) begin
      for (int i = 0; i < TorusPorts; i++) begin
        want[o][i]   = 1'b0;
        want_s[o][i] = '0;
        for (int s = 0; s < Buffers; s++) begin
          logic oldest;
          oldest = can_go[o][i][s];
          for (int t = 0; t < Buffers; t++) begin
            if (t != s && can_go[o][i][t] && older_q[i][t][s]) oldest = 1'b0;
          end
          if (oldest) begin
            want[o][i]   = 1'b1;
            want_s[o][i] = SlotWidth'(s);
          end
        end
      end
      grant[o]    = 1'b0;
      grant_in[o] = '0;
      if (!busy_q[o]) begin
        // Round-robin from the input after the last one served.
        for (int k = TorusPorts; k >= 1; k--) begin
          if (want[o][(int'(rr_q[o]) + k) % TorusPorts]) begin
            grant[o]    = 1'b1;
            grant_in[o] = idx_width(TorusPorts)'((int'(rr_q[o]) + k) % TorusPorts);
          end
        end
      end
      grant_cls[o] = go_cls[o][grant_in[o]][want_s[o][grant_in[o]]];
    end
  end

  // ---- what the outputs put on their links this cycle --------------------------------
  logic emit [TorusPorts];
  logic last [TorusPorts];

  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      out_o[o] = '0;
      emit[o]  = busy_q[o] && wait_q[o] == '0;
      last[o]  = emit[o] &&
                 32'(byte_q[o]) + 1 == 32'(hdr_q[src_q[o]][slot_q[o]].len);
      if (grant[o]) begin
        out_o[o].hdr_valid = 1'b1;
        out_o[o].hdr       = hdr_q[grant_in[o]][want_s[o][grant_in[o]]];
      end
      if (emit[o]) begin
        out_o[o].byte_valid = 1'b1;
        out_o[o].data       = mem_q[src_q[o]][slot_q[o]][byte_q[o]];
      end
    end
  end

  // Per input: its oldest packet that still owes outputs, and whether it is stuck.
  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      logic served;
      wait_o[i]       = 1'b0;
      wait_hdr_o[i]   = '0;
      wait_ports_o[i] = '0;
      for (int sl = 0; sl < Buffers; sl++) begin
        logic oldest;
        oldest = full_q[i][sl] && pend_q[i][sl] != '0;
        for (int t = 0; t < Buffers; t++) begin
          if (t != sl && full_q[i][t] && pend_q[i][t] != '0 && older_q[i][t][sl]) oldest = 1'b0;
        end
        if (oldest) begin
          wait_o[i]       = 1'b1;
          wait_hdr_o[i]   = hdr_q[i][sl];
          wait_ports_o[i] = pend_q[i][sl];
        end
      end
      served = 1'b0;
      for (int o = 0; o < TorusPorts; o++) begin
        if ((grant[o] && int'(grant_in[o]) == i) || (busy_q[o] && int'(src_q[o]) == i))
          served = 1'b1;
      end
      if (served) wait_o[i] = 1'b0;
    end
  end

  // Slots whose last output finishes this cycle free their buffer.
  logic [TorusPorts-1:0] done [TorusPorts][Buffers];
  logic                  freed [TorusPorts][Buffers];

  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      for (int s = 0; s < Buffers; s++) begin
        done[i][s] = '0;
        for (int o = 0; o < TorusPorts; o++) begin
          if (last[o] && int'(src_q[o]) == i && int'(slot_q[o]) == s) done[i][s][o] = 1'b1;
        end
        freed[i][s] = full_q[i][s] && pend_q[i][s] != '0 && (pend_q[i][s] & ~done[i][s]) == '0;
      end
      credit_o[i] = '0;
      for (int s = 0; s < Buffers; s++) begin
        // A packet routed nowhere (an empty forwarding entry) frees its buffer at once.
        if (freed[i][s] || (wlast[i] && int'(wslot[i]) == s && route_in[i] == '0)) begin
          if (in_class(i, s, 1'b1)) credit_o[i][1] = credit_o[i][1] + 1'b1;
          else credit_o[i][0] = credit_o[i][0] + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < TorusPorts; i++) begin
        fill_q[i]  <= '0;
        count_q[i] <= '0;
        for (int s = 0; s < Buffers; s++) begin
          used_q[i][s] <= 1'b0;
          full_q[i][s] <= 1'b0;
          pend_q[i][s] <= '0;
          for (int t = 0; t < Buffers; t++) older_q[i][s][t] <= 1'b0;
        end
      end
      for (int o = 0; o < TorusPorts; o++) begin
        busy_q[o] <= 1'b0;
        src_q[o]  <= '0;
        slot_q[o] <= '0;
        byte_q[o] <= '0;
        wait_q[o] <= '0;
        rr_q[o]   <= '0;
      end
      for (int l = 0; l < TorusLinks; l++) begin
        room_q[l][0] <= CreditWidth'(Class0);
        room_q[l][1] <= CreditWidth'(Buffers - Class0);
      end
      for (int k = 0; k < Trees; k++) fwd_q[k] <= '0;
    end else begin
      if (tbl_we_i && int'(tbl_tree_i) < int'(Trees)) fwd_q[TreeWidth'(tbl_tree_i)] <= tbl_mask_i;
      // Inputs: a header takes a free slot; bytes fill it; the last byte routes it.
      for (int i = 0; i < TorusPorts; i++) begin
        if (in_i[i].hdr_valid) begin
          used_q[i][alloc[i]] <= 1'b1;
          hdr_q[i][alloc[i]]  <= in_i[i].hdr;
          fill_q[i]           <= alloc[i];
          count_q[i]          <= '0;  // a byte in this cycle overrides below
          for (int t = 0; t < Buffers; t++) begin
            older_q[i][t][alloc[i]] <= used_q[i][t] && !freed[i][t];
            older_q[i][alloc[i]][t] <= 1'b0;
          end
        end
        if (in_i[i].byte_valid) begin
          mem_q[i][wslot[i]][windex[i]] <= in_i[i].data;
          count_q[i] <= windex[i] + 1'b1;
          if (wlast[i]) begin
            logic [TorusPorts-1:0] m;
            m = route_in[i];
            full_q[i][wslot[i]] <= m != '0;
            used_q[i][wslot[i]] <= m != '0;
            pend_q[i][wslot[i]] <= m;
          end
        end
        for (int s = 0; s < Buffers; s++) begin
          if (freed[i][s]) begin
            used_q[i][s] <= 1'b0;
            full_q[i][s] <= 1'b0;
            pend_q[i][s] <= '0;
          end else if (done[i][s] != '0) begin
            pend_q[i][s] <= pend_q[i][s] & ~done[i][s];
          end
        end
      end
      // Outputs: a grant starts a hop; the header went out with it.
      for (int o = 0; o < TorusPorts; o++) begin
        if (grant[o]) begin
          busy_q[o] <= 1'b1;
          src_q[o]  <= grant_in[o];
          slot_q[o] <= want_s[o][grant_in[o]];
          byte_q[o] <= '0;
          rr_q[o]   <= grant_in[o];
          // Byte 0 goes Beta + Tau - 1 cycles after the header (the local port: 1).
          wait_q[o] <= (o == TorusLocal) ? '0 : WaitWidth'(32'(beta_i) + 32'(tau_i) - 2);
        end else if (busy_q[o]) begin
          if (emit[o]) begin
            byte_q[o] <= byte_q[o] + 1'b1;
            wait_q[o] <= (o == TorusLocal) ? '0 : WaitWidth'(32'(tau_i) - 1);
            if (last[o]) busy_q[o] <= 1'b0;
          end else begin
            wait_q[o] <= wait_q[o] - 1'b1;
          end
        end
      end
      for (int l = 0; l < TorusLinks; l++) begin
        for (int k = 0; k < 2; k++) begin
          room_q[l][k] <= room_q[l][k] + credit_i[l][k] -
                          CreditWidth'(grant[l] && int'(grant_cls[l]) == k);
        end
      end
    end
  end

`ifndef SYNTHESIS
  TimingInRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      beta_i != '0 && tau_i != '0)
    else $error("tsr_torus_node: beta and tau must be at least 1");
  // Per input: a header with no free buffer (credits should rule it out), or a length
  // outside 1..MaxBytes.
  logic [TorusPorts-1:0] hdr_no_room, hdr_bad_len;
  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      hdr_no_room[i] = in_i[i].hdr_valid && no_room[i];
      hdr_bad_len[i] = in_i[i].hdr_valid &&
                       (in_i[i].hdr.len == '0 || 32'(in_i[i].hdr.len) > MaxBytes);
    end
  end
  HeaderHasRoom_A: assert property (@(posedge clk_i) disable iff (!rst_ni) hdr_no_room == '0)
    else $error("tsr_torus_node: header with no free buffer on inputs %b", hdr_no_room);
  LengthInRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni) hdr_bad_len == '0)
    else $error("tsr_torus_node: packet length outside 1..MaxBytes on inputs %b", hdr_bad_len);
  logic [TorusLinks-1:0] room_over;
  always_comb begin
    for (int l = 0; l < TorusLinks; l++) begin
      room_over[l] = 32'(room_q[l][0]) > Class0 || 32'(room_q[l][1]) > Buffers - Class0;
    end
  end
  CreditsBounded_A: assert property (@(posedge clk_i) disable iff (!rst_ni) room_over == '0)
    else $error("tsr_torus_node: more credits than buffers of a class on outputs %b",
                room_over);
`endif

endmodule
