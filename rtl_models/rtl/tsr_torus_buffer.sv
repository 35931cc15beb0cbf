// The packet buffers of one input port of a store-and-forward torus node
// (tsr_torus_node), in two dateline classes, and the pick of the packet each output may
// take from them.
//
// A link input (Port TorusEast..TorusNorth, fed by the neighbour in direction Port)
// takes a header into a free buffer of the class the packet has here, then its bytes;
// the packet is complete, routed (route_i: tsr_torus_route on fill_hdr_o) and stored
// with its classes behind the outputs (classes_i) as its last byte arrives, and
// delivered here (arrive_o) from the next cycle. Buffers [0, Class0) are of class 0,
// the rest of class 1. The local input (Port TorusLocal) takes the network interface's
// packet whole (inj_*, routed by route_i and classes_i) into any free buffer, all of
// class 0; the packet is stored, delivered here and may leave in the cycle it is
// written, so the pick below sees it as the youngest packet of the input. A packet
// routed nowhere (an empty forwarding entry) frees its buffer as it completes (the
// interface's takes none).
//
// Per output, the pick is the oldest packet that wants the output and may go: the
// neighbour behind a link output has a free buffer of the class the packet takes there
// (room_i). Packets of one stream (a source-destination pair, a tree) take one class,
// so oldest-first among the packets that may go keeps each stream in order. A buffer
// frees in the cycle the last of its packet's outputs sends its last byte (done_i), and
// its credit goes back to the sender (credit_o) in that cycle.
//
// Logic that reads the link or the interface's packet depends on the Verilated top's
// inputs and is evaluated at every eval(); the rest reads registers only and runs once a
// cycle. The two are kept in separate blocks.
module tsr_torus_buffer #(
  /// Torus columns, at least 2 (a tile's column is its id modulo Cols).
  parameter int unsigned Cols = 4,
  /// The input port: TorusEast..TorusNorth (a link) or TorusLocal.
  parameter int unsigned Port = tsr_pkg::TorusEast,
  /// Packet buffers, at least 2.
  parameter int unsigned Buffers = 4,
  /// Largest payload in bytes, 1..65535.
  parameter int unsigned MaxBytes = 64,
  /// Width of a buffer index; derived, do not override.
  localparam int unsigned SlotWidth = tsr_pkg::idx_width(Buffers),
  /// Width of a payload byte index; derived, do not override.
  localparam int unsigned ByteWidth = tsr_pkg::idx_width(MaxBytes),
  /// Width of a credit count; derived, do not override.
  localparam int unsigned CreditWidth = tsr_pkg::cnt_width(Buffers)
) (
  input  logic                                                clk_i,
  input  logic                                                rst_ni,
  // This node's place (the class of an arriving packet; a link input's).
  input  logic [15:0]                                         row_i,
  input  logic [15:0]                                         col_i,
  // A link input's link.
  input  tsr_pkg::torus_link_t                                link_i,
  // The local input's packet, header and payload (bytes 0..len-1), written whole.
  input  logic                                                inj_valid_i,
  input  tsr_pkg::torus_hdr_t                                 inj_hdr_i,
  input  logic [MaxBytes*8-1:0]                               inj_data_i,
  // A link input: the header of the packet being filled.
  output tsr_pkg::torus_hdr_t                                 fill_hdr_o,
  // The route and the classes behind the link outputs of the packet being completed
  // (a link input: the one filling; the local input: the interface's).
  input  logic [tsr_pkg::TorusPorts-1:0]                      route_i,
  input  logic [tsr_pkg::TorusLinks-1:0]                      classes_i,
  // Per link output l and class k (bit 2 l + k): the neighbour has a free buffer.
  input  logic [2*tsr_pkg::TorusLinks-1:0]                    room_i,
  // Per output o, the pick: want_o[o], its buffer, its class behind o (a link output)
  // and its header.
  output logic [tsr_pkg::TorusPorts-1:0]                      want_o,
  output logic [tsr_pkg::TorusPorts*SlotWidth-1:0]            want_slot_o,
  output logic [tsr_pkg::TorusLinks-1:0]                      want_cls_o,
  output logic [tsr_pkg::TorusPorts*tsr_pkg::TorusHdrBits-1:0] want_hdr_o,
  // Payload reads, one per output o: byte rd_byte_i[o] of buffer rd_slot_i[o].
  input  logic [tsr_pkg::TorusPorts*SlotWidth-1:0]            rd_slot_i,
  input  logic [tsr_pkg::TorusPorts*ByteWidth-1:0]            rd_byte_i,
  output logic [tsr_pkg::TorusPorts*8-1:0]                    rd_data_o,
  // Per buffer s and output o (bit s * TorusPorts + o): o sent the last byte of the
  // buffer's packet this cycle.
  input  logic [Buffers*tsr_pkg::TorusPorts-1:0]              done_i,
  // Buffers freed this cycle, per class k (credit_o[k * CreditWidth +: CreditWidth]).
  output logic [2*CreditWidth-1:0]                            credit_o,
  // A packet for this node is complete from this cycle on (a link input: the cycle
  // after its last byte; the local input: the cycle it is written), and its header.
  output logic                                                arrive_o,
  output tsr_pkg::torus_hdr_t                                 arrive_hdr_o,
  // The oldest stored packet that still owes outputs: its header and those outputs.
  output logic                                                owes_o,
  output tsr_pkg::torus_hdr_t                                 owes_hdr_o,
  output logic [tsr_pkg::TorusPorts-1:0]                      owes_ports_o
);

  if (Buffers < 2 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_param_check
    $fatal(1, "tsr_torus_buffer: Buffers must be at least 2 and MaxBytes 1..65535");
  end
  if (Port > tsr_pkg::TorusLocal) begin : gen_port_check
    $fatal(1, "tsr_torus_buffer: Port must be TorusEast..TorusLocal");
  end

  localparam int unsigned Ports = tsr_pkg::TorusPorts;
  localparam int unsigned Links = tsr_pkg::TorusLinks;
  localparam int unsigned HdrBits = tsr_pkg::TorusHdrBits;
  localparam bit IsLink = Port != tsr_pkg::TorusLocal;
  // Buffers [0, Class0) are of class 0: ceil(Buffers / 2) of a link input's, all of the
  // local input's.
  localparam int unsigned Class0 = IsLink ? Buffers - Buffers / 2 : Buffers;

  // ---- State ------------------------------------------------------------------------
  // Per buffer: allocated (filling or full), complete, the outputs still to send on,
  // the buffers allocated before it (a bit each), the class behind each link output.
  logic [Buffers-1:0]    used_q, full_q;
  tsr_pkg::torus_hdr_t   hdr_q   [Buffers];
  logic [Ports-1:0]      pend_q  [Buffers];
  logic [Buffers-1:0]    older_q [Buffers];
  logic [Links-1:0]      ncls_q  [Buffers];
  // The payload memory is left out of FST traces: at 20 packets of MaxBytes per node its
  // trace code would be most of the model's build (payload bytes show on the links).
  /*verilator tracing_off*/
  logic [MaxBytes*8-1:0] mem_q   [Buffers];
  /*verilator tracing_on*/

  // ---- Freeing and owing: registers only -------------------------------------------
  logic [Ports-1:0]   done  [Buffers];
  logic [Buffers-1:0] freed;

  always_comb begin
    for (int s = 0; s < Buffers; s++) begin
      done[s]  = done_i[s*Ports +: Ports];
      freed[s] = full_q[s] && pend_q[s] != '0 && (pend_q[s] & ~done[s]) == '0;
    end
  end

  always_comb begin
    logic [Buffers-1:0] owes;
    owes_o       = 1'b0;
    owes_hdr_o   = '0;
    owes_ports_o = '0;
    for (int s = 0; s < Buffers; s++) owes[s] = full_q[s] && pend_q[s] != '0;
    for (int s = 0; s < Buffers; s++) begin
      if (owes[s] && (older_q[s] & owes) == '0) begin
        owes_o       = 1'b1;
        owes_hdr_o   = hdr_q[s];
        owes_ports_o = pend_q[s];
      end
    end
  end

  always_comb begin
    for (int o = 0; o < Ports; o++) begin
      logic [SlotWidth-1:0] slot;
      logic [ByteWidth-1:0] index;
      slot                = rd_slot_i[o*SlotWidth+:SlotWidth];
      index               = rd_byte_i[o*ByteWidth+:ByteWidth];
      rd_data_o[o*8+:8] = mem_q[slot][32'(index)*8+:8];
    end
  end

  // ---- The write side ---------------------------------------------------------------
  // What the pick sees: the registered buffers, and on the local input the packet the
  // interface writes now.
  logic [Buffers-1:0]   view_full;
  logic [Ports-1:0]     view_pend  [Buffers];
  logic [Buffers-1:0]   view_older [Buffers];
  logic [Links-1:0]     view_ncls  [Buffers];
  logic                 view_inj;  // the local input's packet is in buffer alloc_slot
  // A header (a link input) or a packet (the local input) takes buffer alloc_slot.
  logic                 alloc;
  logic [SlotWidth-1:0] alloc_slot;
  tsr_pkg::torus_hdr_t  alloc_hdr;
  logic                 no_room;  // alloc_slot is not free
  // The packet in buffer complete_slot is complete: it goes to route_i, and with none
  // there (drop) it frees its buffer at once.
  logic                 complete;
  logic [SlotWidth-1:0] complete_slot;
  logic                 drop;
  // A link input: the header of the packet being filled (struct members of a variable
  // declared in a generate block are beyond Yosys 0.23).
  tsr_pkg::torus_hdr_t  hdr_fill;
  assign fill_hdr_o = hdr_fill;

  if (IsLink) begin : gen_link
    logic [SlotWidth-1:0] fill_q;   // the buffer being filled
    logic [ByteWidth-1:0] count_q;  // its bytes arrived
    logic                 arrive_q;
    tsr_pkg::torus_hdr_t  arrive_hdr_q;
    logic                 cls_in;   // the class an arriving header takes

    // A header comes in the first cycle of a hop and its first byte at least a cycle
    // later (beta + tau - 1 >= 1; HeaderBeforeBytes_A), so a byte always goes to the
    // buffer and the index the last header left.
    assign hdr_fill      = hdr_q[fill_q];
    assign arrive_o      = arrive_q;
    assign arrive_hdr_o  = arrive_hdr_q;
    assign complete_slot = fill_q;

    assign view_full = full_q;
    for (genvar gs = 0; gs < Buffers; gs++) begin : gen_view
      assign view_pend[gs]  = pend_q[gs];
      assign view_older[gs] = older_q[gs];
      assign view_ncls[gs]  = ncls_q[gs];
    end
    assign view_inj = 1'b0;

    // From the link: a header takes the lowest free buffer of its class; its packets
    // travel in direction Port ^ 1. Bytes fill the buffer; the last completes it.
    always_comb begin
      logic [15:0] src_row, src_col;
      src_row = 16'(32'(link_i.hdr.src) / Cols);
      src_col = 16'(32'(link_i.hdr.src) % Cols);
      cls_in  = !link_i.hdr.multicast &&
                tsr_pkg::torus_dateline(Port ^ 1, row_i, col_i, src_row, src_col);
      alloc_slot = '0;
      no_room    = 1'b1;
      for (int s = Buffers - 1; s >= 0; s--) begin
        if (!used_q[s] && (32'(s) >= Class0) == cls_in) begin
          alloc_slot = SlotWidth'(s);
          no_room    = 1'b0;
        end
      end
      alloc     = link_i.hdr_valid;
      alloc_hdr = link_i.hdr;
      complete  = link_i.byte_valid && 32'(count_q) + 1 == 32'(hdr_fill.len);
      drop      = complete && route_i == '0;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        fill_q       <= '0;
        count_q      <= '0;
        arrive_q     <= 1'b0;
        arrive_hdr_q <= '0;
      end else begin
        if (link_i.hdr_valid) begin
          fill_q  <= alloc_slot;
          count_q <= '0;
        end
        if (link_i.byte_valid) count_q <= count_q + 1'b1;
        // The packet is complete, and delivered here, from the next cycle.
        arrive_q     <= complete && route_i[tsr_pkg::TorusLocal];
        arrive_hdr_q <= hdr_fill;
      end
    end

    // The payload has no reset: a byte is read only once its packet is complete.
    always_ff @(posedge clk_i) begin
      if (link_i.byte_valid) mem_q[fill_q][32'(count_q)*8+:8] <= link_i.data;
    end

    // The local input's ports are unused here.
    logic unused_inj;
    assign unused_inj = ^{inj_valid_i, inj_hdr_i, inj_data_i};

  end else begin : gen_local
    assign hdr_fill     = '0;
    assign arrive_o     = inj_valid_i && route_i[tsr_pkg::TorusLocal];
    assign arrive_hdr_o = inj_hdr_i;

    // The lowest free buffer (registers only).
    always_comb begin
      alloc_slot = '0;
      no_room    = 1'b1;
      for (int s = Buffers - 1; s >= 0; s--) begin
        if (!used_q[s]) begin
          alloc_slot = SlotWidth'(s);
          no_room    = 1'b0;
        end
      end
    end

    // The interface's packet is stored whole unless it goes nowhere: then it is dropped
    // at once and takes no buffer.
    always_comb begin
      alloc         = inj_valid_i && route_i != '0;
      alloc_hdr     = inj_hdr_i;
      complete      = alloc;
      complete_slot = alloc_slot;
      drop          = inj_valid_i && route_i == '0;
    end

    // It is stored at once, as the youngest packet of the input.
    assign view_inj = alloc;
    always_comb begin
      view_full = full_q;
      for (int s = 0; s < Buffers; s++) begin
        view_pend[s]  = pend_q[s];
        view_older[s] = older_q[s];
        view_ncls[s]  = ncls_q[s];
      end
      if (alloc) begin
        view_full[alloc_slot] = 1'b1;
        view_pend[alloc_slot] = route_i;
        view_ncls[alloc_slot] = classes_i;
        // Older than it: every stored packet. The buffer's bit in the others' rows is
        // left from the packet it held before, which was older than them: clear it, as
        // the register update does.
        view_older[alloc_slot] = used_q;
        for (int t = 0; t < Buffers; t++) view_older[t][alloc_slot] = 1'b0;
      end
    end

    always_ff @(posedge clk_i) begin
      if (alloc) mem_q[alloc_slot] <= inj_data_i;
    end

    // The link ports are unused here.
    logic unused_link;
    assign unused_link = ^{row_i, col_i, link_i};
  end

  // ---- The pick: per output, the oldest packet that wants it and may go --------------
  always_comb begin
    want_cls_o = '0;
    for (int o = 0; o < Ports; o++) begin
      logic [Buffers-1:0]   can_go;
      logic [SlotWidth-1:0] slot;
      for (int s = 0; s < Buffers; s++) begin
        can_go[s] = view_full[s] && view_pend[s][o] &&
                    (o == tsr_pkg::TorusLocal ||
                     room_i[2*(o%Links)+32'(view_ncls[s][o%Links])]);
      end
      want_o[o] = 1'b0;
      slot      = '0;
      for (int s = 0; s < Buffers; s++) begin
        if (can_go[s] && (view_older[s] & can_go) == '0) begin
          want_o[o] = 1'b1;
          slot      = SlotWidth'(s);
        end
      end
      want_slot_o[o*SlotWidth+:SlotWidth] = slot;
      want_hdr_o[o*HdrBits+:HdrBits]      = (view_inj && slot == alloc_slot) ? inj_hdr_i
                                                                              : hdr_q[slot];
      if (o < Links) want_cls_o[o%Links] = view_ncls[slot][o%Links];
    end
  end

  // ---- Credits: freed buffers, and a packet routed nowhere ---------------------------
  // A link input's such packet frees the buffer it filled; the interface's took none.
  always_comb begin
    logic [CreditWidth-1:0] cls0, cls1;
    cls0 = '0;
    cls1 = '0;
    for (int s = 0; s < Buffers; s++) begin
      if (freed[s] || (IsLink && drop && 32'(complete_slot) == s)) begin
        if (32'(s) >= Class0) cls1 = cls1 + 1'b1;
        else cls0 = cls0 + 1'b1;
      end
    end
    if (!IsLink && drop) cls0 = cls0 + 1'b1;
    credit_o = {cls1, cls0};
  end

  // ---- Registers --------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q <= '0;
      full_q <= '0;
      for (int s = 0; s < Buffers; s++) begin
        pend_q[s]  <= '0;
        older_q[s] <= '0;
        ncls_q[s]  <= '0;
      end
    end else begin
      // Freed buffers first: an allocation below may reuse none of them this cycle (the
      // credit reaches the sender next cycle), but their bits must clear.
      used_q <= used_q & ~freed;
      full_q <= full_q & ~freed;
      for (int s = 0; s < Buffers; s++) begin
        if (freed[s]) pend_q[s] <= '0;
        else if (done[s] != '0) pend_q[s] <= pend_q[s] & ~done[s];
      end
      if (alloc) begin
        used_q[alloc_slot]  <= 1'b1;
        hdr_q[alloc_slot]   <= alloc_hdr;
        older_q[alloc_slot] <= used_q & ~freed;
        for (int t = 0; t < Buffers; t++) older_q[t][alloc_slot] <= 1'b0;
      end
      if (complete) begin
        full_q[complete_slot] <= route_i != '0;
        used_q[complete_slot] <= route_i != '0;
        pend_q[complete_slot] <= route_i;
        ncls_q[complete_slot] <= classes_i;
      end
    end
  end

`ifndef SYNTHESIS
  // A header with no free buffer (credits should rule it out), a length outside
  // 1..MaxBytes, a link's header and byte in one cycle. Immediate assertions, clocked
  // like the registers (asynchronous reset), so rst_ni is used one way only.
  logic        offered;
  logic [15:0] offered_len;
  assign offered     = IsLink ? link_i.hdr_valid : inj_valid_i;
  assign offered_len = IsLink ? link_i.hdr.len : inj_hdr_i.len;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      HeaderHasRoom_A: assert (!(alloc && no_room))
        else $error("%m: header with no free buffer");
      LengthInRange_A: assert (!(offered && (offered_len == '0 || 32'(offered_len) > MaxBytes)))
        else $error("%m: packet length %0d outside 1..MaxBytes", offered_len);
      HeaderBeforeBytes_A: assert (!(IsLink && link_i.hdr_valid && link_i.byte_valid))
        else $error("%m: header and byte in one cycle");
    end
  end
`endif

endmodule
