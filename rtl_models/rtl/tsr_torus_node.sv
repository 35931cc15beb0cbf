// One node of a store-and-forward torus with parallel monodirectional ports
// (Bermond92 §1.1: Bermond, Michallon and Trystram, "Broadcasting in
// wraparound meshes with parallel monodirectional links"), in the rules the TLM torus
// engine follows too (docs/rtl.md, net::torus_engine): four input and four output links
// plus a local port, all running at once. A packet is stored whole in an input buffer
// before it goes on; a hop then holds its output link for exactly beta + tau * len
// cycles: the header in the first cycle, payload byte k in cycle beta + tau * (k + 1) - 1.
// The receiving node has the packet complete in the next cycle and may start the next
// hop in that same cycle, so h hops take h (beta + tau len) and q packets pipelined down
// a tree of depth h take (h + q - 1)(beta + tau len).
//
// The local input is written by the network interface a whole packet at a time: the
// packet is stored, and may leave, in the cycle it is written, so a packet posted at t
// over a free path is complete at its destination at t + h (beta + tau len).
//
// Routing: a unicast packet goes dimension order (columns first, the shorter way round,
// ties east/south), a multicast packet to every port of its tree's forwarding entry
// (bit TorusLocal delivers it here). Each output takes, from each input, the oldest
// packet that wants it and may go, and round-robins between the inputs, so a tree's
// packets stay in order. Flow control is by credits: an output starts a hop only while
// the neighbour's input has a free buffer of the class the packet takes there.
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
  // Inputs: the four links from the neighbours.
  input  torus_link_t            in_i     [TorusLinks],
  // The local input: the network interface writes a whole packet, header and payload
  // (bytes 0..len-1 of inj_data_i), into a free local buffer in one cycle.
  input  logic                   inj_valid_i,
  input  torus_hdr_t             inj_hdr_i,
  input  logic [MaxBytes-1:0][7:0] inj_data_i,
  // Buffers freed this cycle, per input and dateline class, back to the sender.
  output logic [1:0][CreditWidth-1:0] credit_o [TorusPorts],
  // Outputs: the four links to the neighbours and the local ejection port.
  output torus_link_t            out_o    [TorusPorts],
  // Observability: a packet to be delivered here is complete in input i from this cycle
  // on (a link input: the cycle after its last byte; the local input: the cycle the
  // interface writes it), and arrive_hdr_o[i] is its header. This is the cycle the
  // packet is delivered, free of the ejection queue.
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
  // Per input, a bit per slot: allocated (filling or full), every byte arrived.
  logic [Buffers-1:0]       used_q  [TorusPorts];
  logic [Buffers-1:0]       full_q  [TorusPorts];
  torus_hdr_t               hdr_q   [TorusPorts][Buffers];
  // The payload memory is left out of FST traces: at 20 packets of MaxBytes per node its
  // trace code would be most of the model's build (payload bytes show on the links).
  /*verilator tracing_off*/
  logic [MaxBytes-1:0][7:0] mem_q   [TorusPorts][Buffers];  // a packet's payload
  /*verilator tracing_on*/
  logic [TorusPorts-1:0]    pend_q  [TorusPorts][Buffers];  // outputs still to send on
  // older_q[i][s]: the slots of input i allocated before slot s, a bit each.
  logic [Buffers-1:0]       older_q [TorusPorts][Buffers];
  // ncls_q[i][s][o]: the dateline class the packet takes behind link output o.
  logic [TorusLinks-1:0]    ncls_q  [TorusPorts][Buffers];
  logic [SlotWidth-1:0]     fill_q  [TorusLinks];  // the slot a link input is filling
  logic [ByteWidth-1:0]     count_q [TorusLinks];
  logic [TorusPorts-1:0]    fwd_q   [Trees];
  // A packet for this node completed on a link input in the last cycle (arrive_o).
  logic [TorusLinks-1:0]    arrive_q;
  torus_hdr_t               arrive_hdr_q [TorusLinks];

  // ---- output serializers -----------------------------------------------------------
  logic                            busy_q [TorusPorts];
  logic [idx_width(TorusPorts)-1:0] src_q [TorusPorts];
  logic [SlotWidth-1:0]            slot_q [TorusPorts];
  logic [ByteWidth-1:0]            byte_q [TorusPorts];
  logic [WaitWidth-1:0]            wait_q [TorusPorts];
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

  // Dateline classes. A unicast packet from src is in class 1 at a node once its route in
  // the dimension it travels has wrapped round the ring, class 0 before; multicast
  // packets stay in class 0. The route in a dimension starts in the source's column
  // (columns go first) or row and covers at most half the ring, so it has wrapped exactly
  // when the node lies past that column or row from the far side: travelling east at
  // column c, c < the source's column; west, c > it; south at row r, r < the source's
  // row; north, r > it.
  // The columns and rows of the neighbours.
  logic [15:0] col_e, col_w, row_s, row_n;
  assign col_e = 16'((int'(col_i) + 1) % Cols);
  assign col_w = 16'((int'(col_i) + Cols - 1) % Cols);
  assign row_s = 16'((int'(row_i) + 1) % Rows);
  assign row_n = 16'((int'(row_i) + Rows - 1) % Rows);

  // The class a packet from src takes behind each link output (bit o), computed once as
  // it is stored.
  function automatic logic [TorusLinks-1:0] out_classes(logic multicast, logic [15:0] src);
    logic [15:0] sr, sc;
    sr = 16'(int'(src) / Cols);
    sc = 16'(int'(src) % Cols);
    return multicast ? '0 : {row_n > sr, row_s < sr, col_w > sc, col_e < sc};
  endfunction

  // Slot s of a link input serves class 1 when s >= Class0; the local input's all
  // serve class 0.
  function automatic logic slot_class(int unsigned i, int unsigned s);
    return i != TorusLocal && s >= Class0;
  endfunction

  // The logic below is split by what it reads. The interface's packet is stored at
  // once, so everything that reads it, or reads a link (whose header depends on this
  // cycle's grants), is combinational from the top's inputs, and Verilator evaluates
  // it in every eval(); the rest reads registers only and is evaluated once a cycle.
  // So the registered part is kept apart, and the per-input work on the links and on
  // the interface's packet is kept small.

  // ---- link inputs, registered part: the packet being filled -------------------------
  // A header comes in the first cycle of a hop and its first byte at least a cycle
  // later (beta + tau - 1 >= 1; HeaderBeforeBytes_A), so a byte always goes to the slot
  // and the index the last header left.
  torus_hdr_t            hdr_fill   [TorusLinks];
  logic [TorusPorts-1:0] route_fill [TorusLinks];  // where it goes once complete

  always_comb begin
    for (int i = 0; i < TorusLinks; i++) begin
      hdr_fill[i]   = hdr_q[i][fill_q[i]];
      route_fill[i] = route(hdr_fill[i].multicast, hdr_fill[i].tree, hdr_fill[i].dst);
    end
  end

  // ---- link inputs, from the links: a header takes a free slot of its class ----------
  logic [SlotWidth-1:0]  alloc   [TorusLinks];
  logic                  no_room [TorusLinks];
  logic                  cls_in  [TorusLinks];  // the class an arriving header takes
  logic [TorusLinks-1:0] ncls_in [TorusLinks];  // and the classes it takes beyond
  logic                  wlast   [TorusLinks];  // the last byte of the packet arrives

  always_comb begin
    for (int i = 0; i < TorusLinks; i++) begin
      logic [15:0] sr, sc;
      sr = 16'(int'(in_i[i].hdr.src) / Cols);
      sc = 16'(int'(in_i[i].hdr.src) % Cols);
      // Input i is fed by the neighbour in direction i, so its packets travel i ^ 1.
      case (i)
        TorusEast:  cls_in[i] = col_i > sc;  // travelling west
        TorusWest:  cls_in[i] = col_i < sc;  // travelling east
        TorusSouth: cls_in[i] = row_i > sr;  // travelling north
        default:    cls_in[i] = row_i < sr;  // travelling south
      endcase
      cls_in[i]  = cls_in[i] && !in_i[i].hdr.multicast;
      ncls_in[i] = out_classes(in_i[i].hdr.multicast, in_i[i].hdr.src);
      alloc[i]   = '0;
      no_room[i] = 1'b1;
      for (int s = Buffers - 1; s >= 0; s--) begin
        if (!used_q[i][s] && slot_class(i, s) == cls_in[i]) begin
          alloc[i]   = SlotWidth'(s);
          no_room[i] = 1'b0;
        end
      end
      wlast[i] = in_i[i].byte_valid && 32'(count_q[i]) + 1 == 32'(hdr_fill[i].len);
    end
  end

  // ---- the local input: the interface's packet ---------------------------------------
  // It goes to inj_route and takes the free slot inj_slot, unless it goes nowhere (an
  // empty forwarding entry): then it is dropped at once.
  logic [SlotWidth-1:0]  inj_slot;
  logic                  inj_no_room;
  logic [TorusPorts-1:0] inj_route;
  logic                  inj_store;
  logic [TorusLinks-1:0] inj_ncls;

  always_comb begin
    inj_slot    = '0;
    inj_no_room = 1'b1;
    for (int s = Buffers - 1; s >= 0; s--) begin
      if (!used_q[TorusLocal][s]) begin
        inj_slot    = SlotWidth'(s);
        inj_no_room = 1'b0;
      end
    end
    inj_route = route(inj_hdr_i.multicast, inj_hdr_i.tree, inj_hdr_i.dst);
    inj_store = inj_valid_i && inj_route != '0;
    inj_ncls  = out_classes(inj_hdr_i.multicast, inj_hdr_i.src);
  end

  always_comb begin
    for (int i = 0; i < TorusLinks; i++) begin
      arrive_o[i]     = arrive_q[i];
      arrive_hdr_o[i] = arrive_hdr_q[i];
    end
    arrive_o[TorusLocal]     = inj_valid_i && inj_route[TorusLocal];
    arrive_hdr_o[TorusLocal] = inj_hdr_i;
  end

  // The local input as this cycle's arbitration sees it: the registered buffers and the
  // packet the interface writes now, stored at once as the youngest of the input.
  logic [Buffers-1:0]    loc_full;
  logic [TorusPorts-1:0] loc_pend  [Buffers];
  logic [Buffers-1:0]    loc_older [Buffers];
  logic [TorusLinks-1:0] loc_ncls  [Buffers];

  always_comb begin
    loc_full  = full_q[TorusLocal];
    loc_pend  = pend_q[TorusLocal];
    loc_older = older_q[TorusLocal];
    loc_ncls  = ncls_q[TorusLocal];
    if (inj_store) begin
      loc_full[inj_slot] = 1'b1;
      loc_pend[inj_slot] = inj_route;
      loc_ncls[inj_slot] = inj_ncls;
      // Older than it: every stored packet. The slot's bit in the others' rows is left
      // from the packet it held before, which was older than them: clear it, as the
      // register update does.
      loc_older[inj_slot] = used_q[TorusLocal];
      for (int t = 0; t < Buffers; t++) loc_older[t][inj_slot] = 1'b0;
    end
  end

  // ---- arbitration: per output, the oldest slot of an input that wants it ------------
  // A packet may go when the neighbour has a free buffer of the class it will take
  // there. Packets of one stream (a source-destination pair, a tree) take one class, so
  // the oldest-first rule among the packets that may go keeps each stream in order.
  // The link inputs' candidates (registered) ...
  logic                 want_l  [TorusPorts][TorusLinks];  // [output][input]
  logic [SlotWidth-1:0] want_ls [TorusPorts][TorusLinks];

  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      for (int i = 0; i < TorusLinks; i++) begin
        logic [Buffers-1:0] can_go;
        for (int s = 0; s < Buffers; s++) begin
          can_go[s] = full_q[i][s] && pend_q[i][s][o] &&
                      (o == TorusLocal ||
                       room_q[o % TorusLinks][ncls_q[i][s][o % TorusLinks]] != '0);
        end
        want_l[o][i]  = 1'b0;
        want_ls[o][i] = '0;
        for (int s = 0; s < Buffers; s++) begin
          if (can_go[s] && (older_q[i][s] & can_go) == '0) begin
            want_l[o][i]  = 1'b1;
            want_ls[o][i] = SlotWidth'(s);
          end
        end
      end
    end
  end

  // ... the local input's, and the grants.
  logic                 want   [TorusPorts][TorusPorts];  // [output][input]
  logic [SlotWidth-1:0] want_s [TorusPorts][TorusPorts];
  logic [TorusPorts-1:0] req   [TorusPorts];  // per output, the inputs asking for it now
  logic                 grant  [TorusPorts];
  logic [idx_width(TorusPorts)-1:0] grant_in [TorusPorts];
  logic [SlotWidth-1:0] grant_slot [TorusPorts];
  logic                 grant_cls  [TorusPorts];

  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      logic [Buffers-1:0] can_go;
      for (int i = 0; i < TorusLinks; i++) begin
        want[o][i]   = want_l[o][i];
        want_s[o][i] = want_ls[o][i];
      end
      for (int s = 0; s < Buffers; s++) begin
        can_go[s] = loc_full[s] && loc_pend[s][o] &&
                    (o == TorusLocal || room_q[o % TorusLinks][loc_ncls[s][o % TorusLinks]] != '0);
      end
      want[o][TorusLocal]   = 1'b0;
      want_s[o][TorusLocal] = '0;
      for (int s = 0; s < Buffers; s++) begin
        if (can_go[s] && (loc_older[s] & can_go) == '0) begin
          want[o][TorusLocal]   = 1'b1;
          want_s[o][TorusLocal] = SlotWidth'(s);
        end
      end
      // A busy output takes no new packet.
      for (int i = 0; i < TorusPorts; i++) req[o][i] = want[o][i] && !busy_q[o];
    end
  end

  // Round robin per output between the inputs, from the input after the last one served;
  // input 1 first after reset, as net::torus_engine's pointer starts at input 0.
  for (genvar go = 0; go < TorusPorts; go++) begin : gen_out_arb
    tsr_rr_arbiter #(
      .N(TorusPorts), .ResetPtr(1)
    ) i_arb (
      .clk_i,
      .rst_ni,
      .req_i   (req[go]),
      .take_i  (grant[go]),
      .valid_o (grant[go]),
      .idx_o   (grant_in[go])
    );
  end

  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      grant_slot[o] = want_s[o][grant_in[o]];
      grant_cls[o]  = int'(grant_in[o]) == TorusLocal ? loc_ncls[grant_slot[o]][o % TorusLinks]
                    : ncls_q[grant_in[o]][grant_slot[o]][o % TorusLinks];
    end
  end

  logic emit [TorusPorts];
  logic last [TorusPorts];

  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      emit[o] = busy_q[o] && wait_q[o] == '0;
      last[o] = emit[o] && 32'(byte_q[o]) + 1 == 32'(hdr_q[src_q[o]][slot_q[o]].len);
    end
  end

  // What the outputs put on their links this cycle: a granted header, a byte.
  always_comb begin
    for (int o = 0; o < TorusPorts; o++) begin
      out_o[o] = '0;
      if (grant[o]) begin
        out_o[o].hdr_valid = 1'b1;
        out_o[o].hdr       = (int'(grant_in[o]) == TorusLocal && inj_store &&
                              grant_slot[o] == inj_slot) ? inj_hdr_i
                                                         : hdr_q[grant_in[o]][grant_slot[o]];
      end
      if (emit[o]) begin
        out_o[o].byte_valid = 1'b1;
        out_o[o].data       = mem_q[src_q[o]][slot_q[o]][byte_q[o]];
      end
    end
  end

  // Per input: its oldest packet that still owes outputs, and whether it is stuck (none
  // of its outputs took a packet from the input this cycle).
  logic [TorusPorts-1:0] owes_any;

  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      logic [Buffers-1:0] owes;
      owes_any[i]     = 1'b0;
      wait_hdr_o[i]   = '0;
      wait_ports_o[i] = '0;
      for (int s = 0; s < Buffers; s++) owes[s] = full_q[i][s] && pend_q[i][s] != '0;
      for (int s = 0; s < Buffers; s++) begin
        if (owes[s] && (older_q[i][s] & owes) == '0) begin
          owes_any[i]     = 1'b1;
          wait_hdr_o[i]   = hdr_q[i][s];
          wait_ports_o[i] = pend_q[i][s];
        end
      end
    end
  end

  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      logic served;
      served = 1'b0;
      for (int o = 0; o < TorusPorts; o++) begin
        if ((grant[o] && int'(grant_in[o]) == i) || (busy_q[o] && int'(src_q[o]) == i))
          served = 1'b1;
      end
      wait_o[i] = owes_any[i] && !served;
    end
  end

  // Slots whose last output finishes this cycle free their buffer (registered).
  logic [TorusPorts-1:0] done  [TorusPorts][Buffers];
  logic [Buffers-1:0]    freed [TorusPorts];

  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      for (int s = 0; s < Buffers; s++) done[i][s] = '0;
    end
    for (int o = 0; o < TorusPorts; o++) begin
      if (last[o]) done[src_q[o]][slot_q[o]][o] = 1'b1;
    end
    for (int i = 0; i < TorusPorts; i++) begin
      for (int s = 0; s < Buffers; s++) begin
        freed[i][s] = full_q[i][s] && pend_q[i][s] != '0 && (pend_q[i][s] & ~done[i][s]) == '0;
      end
    end
  end

  // Credits: a freed buffer; a packet routed nowhere (an empty forwarding entry) frees
  // its buffer as it completes, and the interface's such packet takes none.
  always_comb begin
    for (int i = 0; i < TorusPorts; i++) begin
      credit_o[i] = '0;
      for (int s = 0; s < Buffers; s++) begin
        if (freed[i][s] ||
            (i < TorusLinks && wlast[i % TorusLinks] && int'(fill_q[i % TorusLinks]) == s &&
             route_fill[i % TorusLinks] == '0)) begin
          if (slot_class(i, s)) credit_o[i][1] = credit_o[i][1] + 1'b1;
          else credit_o[i][0] = credit_o[i][0] + 1'b1;
        end
      end
    end
    if (inj_valid_i && !inj_store) credit_o[TorusLocal][0] = credit_o[TorusLocal][0] + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < TorusPorts; i++) begin
        used_q[i] <= '0;
        full_q[i] <= '0;
        for (int s = 0; s < Buffers; s++) begin
          pend_q[i][s]  <= '0;
          older_q[i][s] <= '0;
          ncls_q[i][s]  <= '0;
        end
      end
      for (int i = 0; i < TorusLinks; i++) begin
        fill_q[i]       <= '0;
        count_q[i]      <= '0;
        arrive_q[i]     <= 1'b0;
        arrive_hdr_q[i] <= '0;
      end
      for (int o = 0; o < TorusPorts; o++) begin
        busy_q[o] <= 1'b0;
        src_q[o]  <= '0;
        slot_q[o] <= '0;
        byte_q[o] <= '0;
        wait_q[o] <= '0;
      end
      for (int l = 0; l < TorusLinks; l++) begin
        room_q[l][0] <= CreditWidth'(Class0);
        room_q[l][1] <= CreditWidth'(Buffers - Class0);
      end
      for (int k = 0; k < Trees; k++) fwd_q[k] <= '0;
    end else begin
      if (tbl_we_i && int'(tbl_tree_i) < int'(Trees)) fwd_q[TreeWidth'(tbl_tree_i)] <= tbl_mask_i;
      // Freed slots first: an allocation below may reuse none of them this cycle (the
      // credit reaches the sender next cycle), but their bits must clear.
      for (int i = 0; i < TorusPorts; i++) begin
        used_q[i] <= used_q[i] & ~freed[i];
        full_q[i] <= full_q[i] & ~freed[i];
        for (int s = 0; s < Buffers; s++) begin
          if (freed[i][s]) pend_q[i][s] <= '0;
          else if (done[i][s] != '0) pend_q[i][s] <= pend_q[i][s] & ~done[i][s];
        end
      end
      // Link inputs: a header takes a free slot; bytes fill it; the last byte routes it.
      for (int i = 0; i < TorusLinks; i++) begin
        if (in_i[i].hdr_valid) begin
          used_q[i][alloc[i]] <= 1'b1;
          hdr_q[i][alloc[i]]  <= in_i[i].hdr;
          ncls_q[i][alloc[i]] <= ncls_in[i];
          fill_q[i]           <= alloc[i];
          count_q[i]          <= '0;
          older_q[i][alloc[i]] <= used_q[i] & ~freed[i];
          for (int t = 0; t < Buffers; t++) older_q[i][t][alloc[i]] <= 1'b0;
        end
        if (in_i[i].byte_valid) begin
          mem_q[i][fill_q[i]][count_q[i]] <= in_i[i].data;
          count_q[i] <= count_q[i] + 1'b1;
          if (wlast[i]) begin
            full_q[i][fill_q[i]] <= route_fill[i] != '0;
            used_q[i][fill_q[i]] <= route_fill[i] != '0;
            pend_q[i][fill_q[i]] <= route_fill[i];
          end
        end
        // The packet is complete, and delivered here, from the next cycle.
        arrive_q[i]     <= wlast[i] && route_fill[i][TorusLocal];
        arrive_hdr_q[i] <= hdr_fill[i];
      end
      // The local input: the interface's packet is stored whole.
      if (inj_store) begin
        used_q[TorusLocal][inj_slot]  <= 1'b1;
        full_q[TorusLocal][inj_slot]  <= 1'b1;
        pend_q[TorusLocal][inj_slot]  <= inj_route;
        hdr_q[TorusLocal][inj_slot]   <= inj_hdr_i;
        ncls_q[TorusLocal][inj_slot]  <= inj_ncls;
        mem_q[TorusLocal][inj_slot]   <= inj_data_i;
        older_q[TorusLocal][inj_slot] <= used_q[TorusLocal] & ~freed[TorusLocal];
        for (int t = 0; t < Buffers; t++) older_q[TorusLocal][t][inj_slot] <= 1'b0;
      end
      // Outputs: a grant starts a hop; the header went out with it.
      for (int o = 0; o < TorusPorts; o++) begin
        if (grant[o]) begin
          busy_q[o] <= 1'b1;
          src_q[o]  <= grant_in[o];
          slot_q[o] <= grant_slot[o];
          byte_q[o] <= '0;
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
  // Per input: a header with no free buffer (credits should rule it out), or a length
  // outside 1..MaxBytes.
  logic [TorusPorts-1:0] hdr_no_room, hdr_bad_len;
  always_comb begin
    for (int i = 0; i < TorusLinks; i++) begin
      hdr_no_room[i] = in_i[i].hdr_valid && no_room[i];
      hdr_bad_len[i] = in_i[i].hdr_valid &&
                       (in_i[i].hdr.len == '0 || 32'(in_i[i].hdr.len) > MaxBytes);
    end
    hdr_no_room[TorusLocal] = inj_store && inj_no_room;
    hdr_bad_len[TorusLocal] = inj_valid_i &&
                              (inj_hdr_i.len == '0 || 32'(inj_hdr_i.len) > MaxBytes);
  end
  // A link's header comes a cycle before its first byte at the earliest.
  logic [TorusLinks-1:0] hdr_with_byte;
  logic [TorusLinks-1:0] room_over;
  always_comb begin
    for (int i = 0; i < TorusLinks; i++) hdr_with_byte[i] = in_i[i].hdr_valid && in_i[i].byte_valid;
    for (int l = 0; l < TorusLinks; l++) begin
      room_over[l] = 32'(room_q[l][0]) > Class0 || 32'(room_q[l][1]) > Buffers - Class0;
    end
  end
  // Immediate assertions, clocked like the registers (asynchronous reset), so rst_ni
  // is used one way only.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      TimingInRange_A: assert (beta_i != '0 && tau_i != '0)
        else $error("tsr_torus_node: beta and tau must be at least 1");
      HeaderBeforeBytes_A: assert (hdr_with_byte == '0)
        else $error("tsr_torus_node: header and byte in one cycle on inputs %b", hdr_with_byte);
      HeaderHasRoom_A: assert (hdr_no_room == '0)
        else $error("tsr_torus_node: header with no free buffer on inputs %b", hdr_no_room);
      LengthInRange_A: assert (hdr_bad_len == '0)
        else $error("tsr_torus_node: packet length outside 1..MaxBytes on inputs %b",
                    hdr_bad_len);
      CreditsBounded_A: assert (room_over == '0)
        else $error("tsr_torus_node: more credits than buffers of a class on outputs %b",
                    room_over);
    end
  end
`endif

endmodule
