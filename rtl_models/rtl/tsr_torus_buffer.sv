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
//
// This cell's logic is emitted as C++ once per input of every node of a Verilated torus
// (80 times in the 4 x 4, 320 in the 8 x 8), so it is written for little C++: the state
// is bit masks over the buffers, mask x of a set held as field x of one vector (v[x *
// Buffers +: Buffers]), and the pick, the freeing and the updates are whole-vector
// operations for all outputs at once; the payload is read with plain array indices.
//
// FST traces show the cell's state only: its ports are the node's signals, traced there,
// and its combinational logic, per input of every node, would double the model's trace
// code. The payload memory is left out too: at 20 packets of MaxBytes per node its trace
// code would be most of the model's build (payload bytes show on the links).
/*verilator tracing_off*/
module tsr_torus_buffer #(
  /// Torus rows, at least 2 (the proofs' routes of the stored packets; docs/rtl.md).
  parameter int unsigned Rows = 4,
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
  input  logic                                                 clk_i,
  input  logic                                                 rst_ni,
  // This node's place (the class of an arriving packet; a link input's).
  input  logic [15:0]                                          row_i,
  input  logic [15:0]                                          col_i,
  // A link input's link.
  input  tsr_pkg::torus_link_t                                 link_i,
  // The local input's packet, header and payload (bytes 0..len-1), written whole.
  input  logic                                                 inj_valid_i,
  input  tsr_pkg::torus_hdr_t                                  inj_hdr_i,
  input  logic [MaxBytes*8-1:0]                                inj_data_i,
  // A link input: the header of the packet being filled.
  output tsr_pkg::torus_hdr_t                                  fill_hdr_o,
  // The route and the classes behind the link outputs of the packet being completed
  // (a link input: the one filling; the local input: the interface's).
  input  logic [tsr_pkg::TorusPorts-1:0]                       route_i,
  input  logic [tsr_pkg::TorusLinks-1:0]                       classes_i,
  // Per link output l and class k (bit 2 l + k): the neighbour has a free buffer.
  input  logic [2*tsr_pkg::TorusLinks-1:0]                     room_i,
  // Per output o: the pick as a mask over the buffers, none or one bit set
  // (pick_o[o * Buffers +: Buffers]), whether there is one, and its class behind o (a
  // link output).
  output logic [tsr_pkg::TorusPorts*Buffers-1:0]               pick_o,
  output logic [tsr_pkg::TorusPorts-1:0]                       want_o,
  output logic [tsr_pkg::TorusLinks-1:0]                       want_cls_o,
  // The header in each buffer as the pick sees it (buffer s: hdr_o[s * TorusHdrBits +:
  // TorusHdrBits]), for the output that takes the packet.
  output logic [Buffers*tsr_pkg::TorusHdrBits-1:0]             hdr_o,
  // Per output o, the packet it is sending: its buffer rd_slot_i[o] and byte
  // rd_byte_i[o], read here (rd_data_o), and done_i[o]: o sends the packet's last byte
  // this cycle and the packet is this input's.
  input  logic [tsr_pkg::TorusPorts*SlotWidth-1:0]             rd_slot_i,
  input  logic [tsr_pkg::TorusPorts*ByteWidth-1:0]             rd_byte_i,
  output logic [tsr_pkg::TorusPorts*8-1:0]                     rd_data_o,
  input  logic [tsr_pkg::TorusPorts-1:0]                       done_i,
  // Buffers freed this cycle, per class k (credit_o[k * CreditWidth +: CreditWidth]).
  output logic [2*CreditWidth-1:0]                             credit_o,
  // A packet for this node is complete from this cycle on (a link input: the cycle
  // after its last byte; the local input: the cycle it is written), and its header.
  output logic                                                 arrive_o,
  output tsr_pkg::torus_hdr_t                                  arrive_hdr_o,
  // The oldest stored packet that still owes outputs: its header and those outputs.
  output logic                                                 owes_o,
  output tsr_pkg::torus_hdr_t                                  owes_hdr_o,
  output logic [tsr_pkg::TorusPorts-1:0]                       owes_ports_o
`ifdef FORMAL
  ,
  // For the proofs (below): per class k the sender's buffers in use here (f_out_o[16 k
  // +: 16]), a link's payload bytes still to come, per output the buffers owed to it.
  output logic [31:0]                                          f_out_o,
  output logic [15:0]                                          f_left_o,
  output logic [tsr_pkg::TorusPorts*Buffers-1:0]               f_owed_o
`endif
);

  // Not inlined: as a C++ class of its own, this cell's names are its own, where inlined
  // into the node each would carry the node's path to it (the input's generate block and
  // instance) in every line of the model's C++, which was most of its source.
  /*verilator no_inline_module*/

  if (Buffers < 2 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_param_check
    $fatal(1, "tsr_torus_buffer: Buffers must be at least 2 and MaxBytes 1..65535");
  end
  if (Rows < 2 || Cols < 2) begin : gen_shape_check
    $fatal(1, "tsr_torus_buffer: Rows and Cols must be at least 2");
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
  // Masks in fields: a vector times EachField has a copy of it in every field (it is a
  // one in the lowest bit of each field); a one-bit field times FieldOnes is a full one.
  // Neither product carries, as the fields do not overlap.
  localparam int unsigned Fields = Ports > Buffers ? Ports : Buffers;
  localparam int unsigned Wide = Fields * Buffers;
  // Evaluated at elaboration only: no coverage points (docs/rtl.md "Coverage").
  /* verilator coverage_off */
  function automatic logic [Wide-1:0] each_field();
    each_field = '0;
    for (int unsigned x = 0; x < Fields; x++) each_field[x*Buffers] = 1'b1;
  endfunction
  /* verilator coverage_on */
  localparam logic [Wide-1:0] EachField = each_field();
  localparam logic [Wide-1:0] FieldOnes = Wide'({Buffers{1'b1}});

  // ---- State ------------------------------------------------------------------------
  // Per buffer: allocated (filling or full), complete, its header. As masks: per output
  // o, the buffers whose packet still goes to o; per link output l, those whose packet
  // takes class 1 behind l; per buffer t, those allocated after t (the age order). The
  // headers are plain vectors: Yosys 0.23 gives an unpacked array of a struct type the
  // width of one element and keeps a single header (silently).
  /*verilator tracing_on*/
  logic [Buffers-1:0]         used_q, full_q;
  logic [HdrBits-1:0]         hdr_q [Buffers];
  logic [Ports*Buffers-1:0]   pend_q;
  logic [Links*Buffers-1:0]   ncls_q;
  logic [Buffers*Buffers-1:0] newer_q;
  /*verilator tracing_off*/
`ifdef FORMAL
  // A link input's buffer filling and its bytes arrived, for the proofs (below).
  logic [SlotWidth-1:0]       f_fill_slot;
  logic [ByteWidth-1:0]       f_count;
`endif

  // ---- The write side: signals ------------------------------------------------------
  // A header (a link input) or a packet (the local input) takes buffer alloc_slot
  // (alloc_bit as a mask).
  logic                 alloc;
  logic [SlotWidth-1:0] alloc_slot;
  logic [Buffers-1:0]   alloc_bit;
  tsr_pkg::torus_hdr_t  alloc_hdr;
  logic                 no_room;  // alloc_slot is not free
  // The packet in buffer complete_slot (complete_bit as a mask) is complete: it goes to
  // route_i, and with none there (drop) it frees its buffer at once.
  logic                 complete;
  logic [SlotWidth-1:0] complete_slot;
  logic [Buffers-1:0]   complete_bit;
  logic                 drop;
  // A link input: the header of the packet being filled (struct members of a variable
  // declared in a generate block are beyond Yosys 0.23).
  tsr_pkg::torus_hdr_t  hdr_fill;
  assign fill_hdr_o   = hdr_fill;
  assign alloc_bit    = alloc ? Buffers'(1) << alloc_slot : '0;
  assign complete_bit = complete ? Buffers'(1) << complete_slot : '0;

  // The route and the classes as masks with bit 0 of field x set for each bit x, to be
  // shifted to a buffer.
  logic [Ports*Buffers-1:0] route_at;
  logic [Links*Buffers-1:0] cls_at;

  always_comb begin
    route_at = '0;
    cls_at   = '0;
    for (int o = 0; o < Ports; o++) route_at = route_at | ((Ports*Buffers)'(route_i[o]) << (o*Buffers));
    for (int l = 0; l < Links; l++) cls_at = cls_at | ((Links*Buffers)'(classes_i[l]) << (l*Buffers));
  end

  // ---- Freeing and owing: registers only -------------------------------------------
  // Per output, the buffer whose last byte it sends now. A buffer frees once no output
  // is left to send it.
  logic [Ports*Buffers-1:0] done;
  logic [Buffers-1:0]       owes, freed, live;

  always_comb begin
    logic [Buffers-1:0] left;
    done = '0;
    for (int o = 0; o < Ports; o++) begin
      if (done_i[o]) done = done | ((Ports*Buffers)'(1) << (o*Buffers +
                                                              32'(rd_slot_i[o*SlotWidth+:SlotWidth])));
    end
    owes = '0;
    left = '0;
    for (int o = 0; o < Ports; o++) begin
      owes = owes | Buffers'(pend_q >> (o*Buffers));
      left = left | Buffers'((pend_q & ~done) >> (o*Buffers));
    end
    owes  = owes & full_q;
    freed = owes & ~left;
    live  = used_q & ~freed;
  end

  // The oldest buffer that owes: none allocated before it owes (the age order is total
  // over the allocated buffers, so there is at most one).
  always_comb begin
    logic [Buffers-1:0]   younger, first;
    logic [SlotWidth-1:0] slot;
    younger = '0;
    for (int t = 0; t < Buffers; t++) begin
      if (owes[t]) younger = younger | newer_q[t*Buffers+:Buffers];
    end
    first = owes & ~younger;
    slot  = '0;
    for (int s = 0; s < Buffers; s++) begin
      if (first[s]) slot = SlotWidth'(s);
    end
    owes_o       = first != '0;
    owes_hdr_o   = owes_o ? hdr_q[slot] : '0;
    owes_ports_o = '0;
    for (int o = 0; o < Ports; o++) begin
      owes_ports_o = owes_ports_o | (Ports'((pend_q[o*Buffers+:Buffers] & first) != '0) << o);
    end
  end

  // ---- The write side ---------------------------------------------------------------
  // What the pick sees: the registered buffers, and on the local input the packet the
  // interface writes now.
  logic [Buffers-1:0]         view_full;
  logic [Ports*Buffers-1:0]   view_pend;
  logic [Links*Buffers-1:0]   view_ncls;
  logic [Buffers*Buffers-1:0] view_newer;

  if (IsLink) begin : gen_link
    /*verilator tracing_on*/
    logic [SlotWidth-1:0] fill_q;   // the buffer being filled
    logic [ByteWidth-1:0] count_q;  // its bytes arrived
    logic                 arrive_q;
    tsr_pkg::torus_hdr_t  arrive_hdr_q;
    /*verilator tracing_off*/
    logic                 cls_in;   // the class an arriving header takes
    // The payload as bytes: it fills a byte at a time, and an output's byte is a plain
    // array read.
    logic [7:0]           mem_q [Buffers][MaxBytes];

    // A header comes in the first cycle of a hop and its first byte at least a cycle
    // later (beta + tau - 1 >= 1; HeaderBeforeBytes_A), so a byte always goes to the
    // buffer and the index the last header left.
    assign hdr_fill      = hdr_q[fill_q];
    assign arrive_o      = arrive_q;
    assign arrive_hdr_o  = arrive_hdr_q;
    assign complete_slot = fill_q;
`ifdef FORMAL
    assign f_fill_slot = fill_q;
    assign f_count     = count_q;
`endif

    assign view_full  = full_q;
    assign view_pend  = pend_q;
    assign view_ncls  = ncls_q;
    assign view_newer = newer_q;
    always_comb begin
      for (int s = 0; s < Buffers; s++) hdr_o[s*HdrBits+:HdrBits] = hdr_q[s];
    end

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
      if (link_i.byte_valid) mem_q[fill_q][count_q] <= link_i.data;
    end

    always_comb begin
      for (int o = 0; o < Ports; o++) begin
        rd_data_o[o*8+:8] = mem_q[rd_slot_i[o*SlotWidth+:SlotWidth]][rd_byte_i[o*ByteWidth+:ByteWidth]];
      end
    end

    // The local input's ports are unused here.
    logic unused_inj;
    assign unused_inj = ^{inj_valid_i, inj_hdr_i, inj_data_i};

  end else begin : gen_local
    // The payload as one vector: a whole packet is written at once, one wide
    // part-select.
    logic [Buffers*MaxBytes*8-1:0] mem_q;

    assign hdr_fill     = '0;
`ifdef FORMAL
    assign f_fill_slot = '0;
    assign f_count     = '0;
`endif
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

    // It is stored at once, as the youngest packet of the input: allocated after every
    // allocated buffer, before none (its buffer's row in the age order is left from the
    // packet it held before).
    always_comb begin
      logic [Buffers*Buffers-1:0] used_rows;
      used_rows = '0;
      for (int t = 0; t < Buffers; t++) begin
        used_rows = used_rows | ((Buffers*Buffers)'(used_q[t]) << (t*Buffers));
      end
      view_full  = full_q;
      view_pend  = pend_q;
      view_ncls  = ncls_q;
      view_newer = newer_q;
      if (alloc) begin
        view_full  = full_q | alloc_bit;
        view_pend  = pend_q | (route_at << alloc_slot);
        view_ncls  = (ncls_q & ~((Links*Buffers)'(EachField) * alloc_bit)) |
                     (cls_at << alloc_slot);
        view_newer = (newer_q & ~((Buffers*Buffers)'(FieldOnes) << (32'(alloc_slot)*Buffers)) &
                      ~((Buffers*Buffers)'(EachField) * alloc_bit)) |
                     ((used_rows * (Buffers*Buffers)'(FieldOnes)) &
                      ((Buffers*Buffers)'(EachField) * alloc_bit));
      end
      for (int s = 0; s < Buffers; s++) begin
        hdr_o[s*HdrBits+:HdrBits] = alloc_bit[s] ? inj_hdr_i : hdr_q[s];
      end
    end

    always_ff @(posedge clk_i) begin
      if (alloc) mem_q[32'(alloc_slot)*MaxBytes*8+:MaxBytes*8] <= inj_data_i;
    end

    always_comb begin
      for (int o = 0; o < Ports; o++) begin
        rd_data_o[o*8+:8] = mem_q[(32'(rd_slot_i[o*SlotWidth+:SlotWidth])*MaxBytes +
                                   32'(rd_byte_i[o*ByteWidth+:ByteWidth]))*8+:8];
      end
    end

    // The link ports are unused here.
    logic unused_link;
    assign unused_link = ^{row_i, col_i, link_i};
  end

  // ---- The pick: per output, the oldest packet that wants it and may go --------------
  // can_go: the buffers whose packet may go to each output now (a link output: the
  // neighbour has a free buffer of the class the packet takes there); younger: of them,
  // those allocated after another; the rest is the oldest (at most one: the age order
  // is total over the allocated buffers).
  always_comb begin
    logic [Ports*Buffers-1:0] can_go, younger;
    can_go = view_pend & ((Ports*Buffers)'(EachField) * view_full);
    for (int l = 0; l < Links; l++) begin
      logic [Buffers-1:0] ncls, stuck;
      ncls   = view_ncls[l*Buffers+:Buffers];
      stuck  = (ncls & {Buffers{!room_i[2*l+1]}}) | (~ncls & {Buffers{!room_i[2*l]}});
      can_go = can_go & ~((Ports*Buffers)'(stuck) << (l*Buffers));
    end
    // Buffer t's bit in every field, spread over the field, marks the outputs it may go
    // to; the buffers allocated after it are younger there.
    younger = '0;
    for (int t = 0; t < Buffers; t++) begin
      younger = younger | ((((can_go >> t) & (Ports*Buffers)'(EachField)) *
                            (Ports*Buffers)'(FieldOnes)) &
                           ((Ports*Buffers)'(EachField) * view_newer[t*Buffers+:Buffers]));
    end
    pick_o     = can_go & ~younger;
    want_o     = '0;
    want_cls_o = '0;
    for (int o = 0; o < Ports; o++) begin
      want_o = want_o | (Ports'(pick_o[o*Buffers+:Buffers] != '0) << o);
    end
    for (int l = 0; l < Links; l++) begin
      want_cls_o = want_cls_o |
                   (Links'((pick_o[l*Buffers+:Buffers] & view_ncls[l*Buffers+:Buffers]) != '0) << l);
    end
  end

  // ---- Credits: freed buffers, and a packet routed nowhere ---------------------------
  // A link input's such packet frees the buffer it filled; the interface's took none.
  always_comb begin
    logic [Buffers-1:0]     back;
    logic [CreditWidth-1:0] cls0, cls1;
    back = freed | ((IsLink && drop) ? complete_bit : '0);
    cls0 = '0;
    cls1 = '0;
    for (int s = 0; s < Buffers; s++) begin
      if (32'(s) >= Class0) cls1 = cls1 + CreditWidth'(back[s]);
      else cls0 = cls0 + CreditWidth'(back[s]);
    end
    if (!IsLink && drop) cls0 = cls0 + 1'b1;
    credit_o = {cls1, cls0};
  end

  // ---- Registers --------------------------------------------------------------------
  // Freed buffers clear: an allocation may reuse none of them this cycle (the credit
  // reaches the sender next cycle). An allocated buffer is the youngest: allocated
  // after every live buffer, before none. A completed buffer is full (or, routed
  // nowhere, free again) and owes the outputs of its route, with its classes behind
  // them.
  logic [Buffers*Buffers-1:0] live_rows;

  always_comb begin
    live_rows = '0;
    for (int t = 0; t < Buffers; t++) begin
      live_rows = live_rows | ((Buffers*Buffers)'(live[t]) << (t*Buffers));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q  <= '0;
      full_q  <= '0;
      pend_q  <= '0;
      ncls_q  <= '0;
      newer_q <= '0;
    end else begin
      used_q <= (live & ~complete_bit) | alloc_bit | (route_i != '0 ? complete_bit : '0);
      full_q <= (full_q & ~freed & ~complete_bit) | (route_i != '0 ? complete_bit : '0);
      pend_q <= pend_q & ~done & ~((Ports*Buffers)'(EachField) * freed);
      if (complete) begin
        pend_q <= (pend_q & ~done & ~((Ports*Buffers)'(EachField) * freed) &
                   ~((Ports*Buffers)'(EachField) * complete_bit)) |
                  (route_at << complete_slot);
        ncls_q <= (ncls_q & ~((Links*Buffers)'(EachField) * complete_bit)) |
                  (cls_at << complete_slot);
      end
      if (alloc) begin
        newer_q <= (newer_q & ~((Buffers*Buffers)'(FieldOnes) << (32'(alloc_slot)*Buffers)) &
                    ~((Buffers*Buffers)'(EachField) * alloc_bit)) |
                   ((live_rows * (Buffers*Buffers)'(FieldOnes)) &
                    ((Buffers*Buffers)'(EachField) * alloc_bit));
        hdr_q[alloc_slot] <= alloc_hdr;
      end
    end
  end

`ifndef SYNTHESIS
  // A header with no free buffer (credits should rule it out), a length outside
  // 1..MaxBytes, a link's header and byte in one cycle, an output finishing a packet this
  // input does not owe it (not stored whole here, or sent to that output before).
  // Immediate assertions, clocked like the registers (asynchronous reset), so rst_ni is
  // used one way only.
  logic        offered;
  logic [15:0] offered_len;
  /* verilator coverage_off */  // checks only: no toggle points
  logic [Ports-1:0] unowed_done;
  /* verilator coverage_on */
  assign offered     = IsLink ? link_i.hdr_valid : inj_valid_i;
  assign offered_len = IsLink ? link_i.hdr.len : inj_hdr_i.len;
  always_comb begin
    for (int o = 0; o < Ports; o++) begin
      unowed_done[o] = done_i[o] && (((pend_q[o*Buffers+:Buffers] & full_q) >>
                                      rd_slot_i[o*SlotWidth+:SlotWidth]) & Buffers'(1)) == '0;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      HeaderHasRoom_A: assert (!(alloc && no_room))
        else $error("%m: header with no free buffer");
      LengthInRange_A: assert (!(offered && (offered_len == '0 || 32'(offered_len) > MaxBytes)))
        else $error("%m: packet length %0d outside 1..MaxBytes", offered_len);
      HeaderBeforeBytes_A: assert (!(IsLink && link_i.hdr_valid && link_i.byte_valid))
        else $error("%m: header and byte in one cycle");
      DoneOwed_A: assert (unowed_done == '0)
        else $error("%m: outputs %b finish a packet this input does not owe them", unowed_done);
    end
  end
`endif

`ifdef FORMAL
  // ---- For the proofs by induction (rtl_models/formal/tsr_torus_buffer_formal.sv) ------
  // Only Yosys -formal reads this (docs/rtl.md "Formal properties"). The sender's side,
  // which the proofs assume: a link carries a header, then its len bytes, then the next
  // header (LinkProtocol_A); the sender, the neighbour's node (a link input) or the
  // network interface (the local input), counts per dateline class the buffers it has
  // filled here and not had back as credits, and sends a packet only while one of the
  // packet's class is free (SenderCredits_A), the class taken as the sender's route puts
  // it (tsr_torus_route at the neighbour's place). The properties: a header always finds
  // a free buffer of its class (HeaderHasRoom_A), the sender's count per class equals the
  // buffers of the class in use (CreditsAgree_A: no credit lost, made up or returned to
  // the wrong class); each output's pick is one buffer, the oldest of those that may go
  // to it (PickOldest_A), so a stream's packets (a source-destination pair, a tree) leave
  // in the order they came (OrderKept_A); a stored packet keeps the classes its header
  // routes to (ClassKept_A). The invariants that carry the induction: one buffer
  // filling, with its bytes counted, and every header stored of 1..MaxBytes bytes
  // (FillState_A); a full buffer owes an output, an owed one is full (FullOwes_A); the
  // age order is a total order over the buffers in use (AgeOrder_A).
  logic [15:0]         f_left_d, f_left_q;  // a link input: bytes still to come on the link
  logic [31:0]         f_out_d, f_out_q;    // per class k (bits 16 k +: 16): the sender's
  logic [31:0]         f_used, f_limit;     // buffers in use here; those in use; its limit
  logic                f_offer, f_cls;      // a packet offered now; its class as sent
  logic [15:0]         f_up_row, f_up_col;  // the sender's place (a link input)
  logic [Links-1:0]    f_up_cls;
  logic [Buffers*Links-1:0] f_cls_of;       // per buffer: the classes its header routes to
  logic                f_fill, f_full_owes, f_age, f_cls_kept;
  logic [Ports-1:0]    f_oldest, f_order, f_one;
  tsr_pkg::torus_hdr_t f_h, f_g;

  assign f_up_row = Port == tsr_pkg::TorusSouth ? 16'((32'(row_i) + 1) % Rows)
                  : Port == tsr_pkg::TorusNorth ? 16'((32'(row_i) + Rows - 1) % Rows) : row_i;
  assign f_up_col = Port == tsr_pkg::TorusEast ? 16'((32'(col_i) + 1) % Cols)
                  : Port == tsr_pkg::TorusWest ? 16'((32'(col_i) + Cols - 1) % Cols) : col_i;
  tsr_torus_route #(.Rows(Rows), .Cols(Cols), .Trees(1)) f_up_route (
    .row_i (f_up_row), .col_i (f_up_col), .fwd_i ('0), .hdr_i (link_i.hdr), .ports_o (),
    .classes_o (f_up_cls)
  );
  // Per buffer in use: its header's length is outside 1..MaxBytes (len is the header's
  // last field).
  logic [Buffers-1:0] f_len_bad;
  for (genvar gs = 0; gs < Buffers; gs++) begin : gen_f_route
    assign f_len_bad[gs] = used_q[gs] && (hdr_q[gs][15:0] == '0 || 32'(hdr_q[gs][15:0]) > MaxBytes);
    tsr_torus_route #(.Rows(Rows), .Cols(Cols), .Trees(1)) f_route (
      .row_i, .col_i, .fwd_i ('0), .hdr_i (hdr_q[gs]), .ports_o (),
      .classes_o (f_cls_of[gs*Links+:Links])
    );
  end

  assign f_out_o    = f_out_q;
  assign f_left_o   = f_left_q;
  assign f_owed_o   = pend_q & ((Ports*Buffers)'(EachField) * full_q);
  assign f_offer    = IsLink ? link_i.hdr_valid : inj_valid_i;
  assign f_cls      = IsLink && f_up_cls[Port^1];
  assign f_limit = {16'(Buffers - Class0), 16'(Class0)};
  always_comb begin
    f_left_d = f_left_q;
    if (IsLink && link_i.hdr_valid) f_left_d = link_i.hdr.len;
    else if (IsLink && link_i.byte_valid) f_left_d = f_left_q - 1'b1;
    for (int k = 0; k < 2; k++) begin
      f_out_d[k*16+:16] = f_out_q[k*16+:16] + 16'(f_offer && 32'(f_cls) == k) -
                          16'(credit_o[k*CreditWidth+:CreditWidth]);
      f_used[k*16+:16]  = '0;
    end
    for (int t = 0; t < Buffers; t++) begin
      if (used_q[t] && 32'(t) < Class0) f_used[0+:16] = f_used[0+:16] + 1'b1;
      if (used_q[t] && 32'(t) >= Class0) f_used[16+:16] = f_used[16+:16] + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_left_q <= '0;
      f_out_q  <= '0;
    end else begin
      f_left_q <= f_left_d;
      f_out_q  <= f_out_d;
    end
  end

  always_comb begin
    f_fill = (full_q & ~used_q) != '0;
    if (IsLink && f_left_q != '0) begin
      f_fill = f_fill || (used_q & ~full_q) != Buffers'(1) << f_fill_slot ||
               32'(f_fill_slot) >= Buffers || 32'(f_count) + 32'(f_left_q) != 32'(hdr_fill.len) ||
               32'(hdr_fill.len) > MaxBytes;
    end else begin
      f_fill = f_fill || used_q != full_q;
    end
    f_full_owes = 1'b0;
    f_cls_kept  = 1'b0;
    for (int t = 0; t < Buffers; t++) begin
      logic owed;
      if (f_len_bad[t]) f_fill = 1'b1;
      owed = 1'b0;
      for (int o = 0; o < Ports; o++) begin
        owed = owed || pend_q[o*Buffers+t];
        if (pend_q[o*Buffers+t] && !full_q[t]) f_full_owes = 1'b1;
      end
      if (full_q[t] && !owed) f_full_owes = 1'b1;
      for (int l = 0; l < Links; l++) begin
        if (full_q[t] && ncls_q[l*Buffers+t] != f_cls_of[t*Links+l]) f_cls_kept = 1'b1;
      end
    end
    f_age = 1'b0;
    for (int t = 0; t < Buffers; t++) begin
      for (int u = 0; u < Buffers; u++) begin
        if (used_q[t] && used_q[u]) begin
          if (t == u && newer_q[t*Buffers+u]) f_age = 1'b1;
          if (t != u && newer_q[t*Buffers+u] == newer_q[u*Buffers+t]) f_age = 1'b1;
          for (int v = 0; v < Buffers; v++) begin
            if (used_q[v] && newer_q[t*Buffers+u] && newer_q[u*Buffers+v] &&
                !newer_q[t*Buffers+v]) f_age = 1'b1;
          end
        end
      end
    end
  end

  // Per output: the buffers that may go to it (as the pick sees them); the pick one of
  // them, the oldest, and there when any may go; no older packet of the pick's stream
  // owed to the output.
  always_comb begin
    f_oldest = '0;
    f_order  = '0;
    f_one    = '0;
    for (int o = 0; o < Ports; o++) begin
      logic [Buffers-1:0] may, pick;
      for (int t = 0; t < Buffers; t++) begin
        may[t] = view_pend[o*Buffers+t] && view_full[t] &&
                 (o >= Links || room_i[2*o+32'(view_ncls[o*Buffers+t])]);
      end
      pick     = pick_o[o*Buffers+:Buffers];
      f_one[o] = !$onehot0(pick) || (pick & ~may) != '0 || want_o[o] != (may != '0);
      if (o < Links && want_cls_o[o] != ((pick & view_ncls[o*Buffers+:Buffers]) != '0)) begin
        f_one[o] = 1'b1;
      end
      for (int t = 0; t < Buffers; t++) begin
        for (int u = 0; u < Buffers; u++) begin
          if (pick[t] && may[u] && u != t && !view_newer[t*Buffers+u]) f_oldest[o] = 1'b1;
          f_h = hdr_o[t*HdrBits+:HdrBits];
          f_g = hdr_o[u*HdrBits+:HdrBits];
          if (pick[t] && u != t && view_full[u] && view_pend[o*Buffers+u] &&
              view_newer[u*Buffers+t] && f_h.multicast == f_g.multicast &&
              (f_h.multicast ? f_h.tree == f_g.tree
                             : f_h.src == f_g.src && f_h.dst == f_g.dst)) begin
            f_order[o] = 1'b1;
          end
        end
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      LinkProtocol_A: assert (!(IsLink && link_i.hdr_valid && f_left_q != '0) &&
                              !(IsLink && link_i.byte_valid && f_left_q == '0));
      SenderCredits_A: assert (!(f_offer &&
                                 f_out_q[32'(f_cls)*16+:16] >= f_limit[32'(f_cls)*16+:16]));
      CreditsAgree_A: assert (f_out_q == f_used);
      FillState_A: assert (!f_fill);
      FullOwes_A: assert (!f_full_owes);
      AgeOrder_A: assert (!f_age);
      ClassKept_A: assert (!f_cls_kept);
      PickOldest_A: assert (f_one == '0 && f_oldest == '0);
      OrderKept_A: assert (f_order == '0);
    end
  end
`endif

endmodule
/*verilator tracing_on*/
