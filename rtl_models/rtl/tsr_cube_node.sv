// One node of a circuit-switched D-cube (Boppana90 §2; the iPSC-860
// of Bokhari91 §2; the TLM circuit
// engine of docs/tlm.md): D link inputs and outputs, one per dimension, plus two local
// injection inputs (D and D + 1, one per message slot of the network interface) and the
// ejection output (D).
//
// Setup. A header arriving on an input (from a neighbour, or from the local network
// interface) asks for its e-cube output: the lowest dimension in which dst differs from
// this node, or the ejection port when dst is this node. An output is free when it was
// not reserved at the end of the last cycle (busy_o low). A free output is granted in
// that same cycle; a busy one makes the header wait on its input, holding the links
// behind it (hold-and-wait), and it is granted in the first cycle the output is free.
// Several headers asking for one free output in one cycle: arb_i picks the lowest
// source (CubeArbLowestId) or the first source at or after the output's pointer,
// cyclically, the pointer then moving past the winner (CubeArbRoundRobin). The two local
// inputs never ask at once: the interface sets up one message at a time.
//
// Timing. A cube output granted in cycle g presents the header to the neighbour in
// cycle g + tau, where it may be granted again in that cycle; so a path of i hops whose
// first output is granted at g1 reserves the destination's ejection port at
// S = g1 + i tau. The circuit is then complete (the top turns thru_o into the backward
// "path complete" signal the source sees in that same cycle S). Elements cross each
// cube output through one register and the ejection port without one, so an element
// entering at the source in cycle c leaves the destination in cycle c + i.
//
// Teardown. The element flagged last frees, at every node it passes, the output it
// passes through: the output is busy up to and including the cycle the tail crosses
// the node, and free (grantable) from the next cycle.
module tsr_cube_node #(
  /// Cube dimensions D, 1..16 (2^D nodes).
  parameter int unsigned Dims = 3,
  /// Bits of one data element.
  parameter int unsigned DataWidth = 8,
  /// Inputs: the D links, then the CubeSlots local inputs from D on; derived, do not
  /// override.
  localparam int unsigned Ins = Dims + tsr_pkg::CubeSlots,
  /// Outputs: the D links and the ejection port, whose index is D; derived, do not
  /// override.
  localparam int unsigned Outs = Dims + 1,
  /// Width of an input index; derived, do not override.
  localparam int unsigned InWidth = tsr_pkg::idx_width(Ins),
  /// Width of an output index; derived, do not override.
  localparam int unsigned OutWidth = tsr_pkg::idx_width(Outs),
  /// Width of a node id; derived, do not override.
  localparam int unsigned IdWidth = (Dims >= 1) ? Dims : 1,
  /// Bits of a cube_hdr_t, cube_setup_t and cube_stream_t; derived, do not override.
  localparam int unsigned HdrBits = tsr_pkg::CubeHdrBits,
  localparam int unsigned SetupBits = tsr_pkg::CubeSetupBits,
  localparam int unsigned StreamBits = tsr_pkg::CubeStreamBits,
  /// Local inputs; derived, do not override.
  localparam int unsigned Slots = tsr_pkg::CubeSlots
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // This node's id (one module serves every node of the cube).
  input  logic [IdWidth-1:0]          id_i,
  // Cycles a header takes over one link, at least 1; an input so one model serves
  // every timing a testbench checks.
  input  logic [7:0]                  tau_i,
  // CubeArbLowestId or CubeArbRoundRobin.
  input  logic                        arb_i,
  // Link inputs, input d from the neighbour across dimension d: its cube_setup_t at
  // setup_i[d*SetupBits +: SetupBits], its cube_stream_t at
  // stream_i[d*StreamBits +: StreamBits], its element at data_i[d*DataWidth +: DataWidth].
  input  logic [Dims*SetupBits-1:0]   setup_i,
  input  logic [Dims*StreamBits-1:0]  stream_i,
  input  logic [Dims*DataWidth-1:0]   data_i,
  // Link outputs, output d to the neighbour across dimension d, laid out as the inputs.
  output logic [Dims*SetupBits-1:0]   setup_o,
  output logic [Dims*StreamBits-1:0]  stream_o,
  output logic [Dims*DataWidth-1:0]   data_o,
  // Local injection (inputs D + s) from the network interface's message slots s, slot s
  // at [s*W +: W] as for the links. Whole vectors, which the top connects as they are:
  // unpacked arrays written element by element in the top made Verilator 5.006 copy the
  // whole node's logic into both its input and its clock regions (twice the C++, half
  // the speed).
  input  logic [Slots*SetupBits-1:0]  inj_setup_i,
  input  logic [Slots*StreamBits-1:0] inj_stream_i,
  input  logic [Slots*DataWidth-1:0]  inj_data_i,
  // Local ejection (output D): the header in the cycle the port is granted, then the
  // elements, each in the cycle it arrives.
  output tsr_pkg::cube_setup_t        ej_setup_o,
  output tsr_pkg::cube_stream_t       ej_stream_o,
  output logic [DataWidth-1:0]        ej_data_o,
  // thru_o[p*Outs + o]: input p is connected to output o. A cube output counts from the
  // cycle after its grant, the ejection port from its grant, so the chain of thru_o along
  // a path is complete exactly in the cycle the destination grants its ejection port.
  output logic [Ins*Outs-1:0]         thru_o,
  // Per output o (bit o; its header at hold_hdr_o[o*HdrBits +: HdrBits]): granted this
  // cycle, reserved since an earlier cycle (the network interface reads it: a message is
  // set up ahead only onto a free first output), the tail crossing towards it this cycle
  // (free from the next), and the header of the circuit that holds it or is granted it
  // now.
  output logic [Outs-1:0]             grant_o,
  output logic [Outs-1:0]             busy_o,
  output logic [Outs-1:0]             tail_o,
  output logic [Outs*HdrBits-1:0]     hold_hdr_o,
  // Observability, per input p: a header asking and not granted this cycle (bit p), the
  // output it asks for (want_o[p*OutWidth +: OutWidth]) and the header
  // (want_hdr_o[p*HdrBits +: HdrBits]).
  output logic [Ins-1:0]              wait_o,
  output logic [Ins*OutWidth-1:0]     want_o,
  output logic [Ins*HdrBits-1:0]      want_hdr_o
);

  if (Dims < 1 || Dims > 16) begin : gen_dims_check
    $fatal(1, "tsr_cube_node: Dims must be 1..16");
  end
  if (DataWidth < 1) begin : gen_width_check
    $fatal(1, "tsr_cube_node: DataWidth must be at least 1");
  end

  localparam int unsigned Local = Dims;  // the first local input's index
  localparam int unsigned Eject = Dims;  // the ejection port's index

  // Scratch values of the loops below, one input or output at a time. Headers and
  // channels live in plain vectors; a field is read by copying the value into one of
  // these scalars first (Yosys 0.23 reads a struct field only on a scalar). Not traced:
  // they mean nothing once a loop is over, and untraced Verilator keeps them local.
  /* verilator tracing_off */
  tsr_pkg::cube_setup_t  setup_in;   // an input's setup channel
  tsr_pkg::cube_hdr_t    hdr_in;     // an input's header
  tsr_pkg::cube_stream_t stream_in;  // an input's stream channel
  tsr_pkg::cube_setup_t  setup_out;  // a cube output's setup channel
  logic [IdWidth-1:0]    diff;       // the dimensions a header still has to correct
  logic [IdWidth-1:0]    arb_best;   // arbitration: the winning key so far
  logic [IdWidth-1:0]    arb_key;    // arbitration: the key of a candidate
  /* verilator tracing_on */

  // ---- setup: the header each input presents this cycle, and where it goes ------------
  logic [SetupBits-1:0] in_setup  [Ins];
  logic                 in_valid  [Ins];  // a header arrives this cycle
  logic                 req       [Ins];  // a header asks for an output this cycle
  logic [HdrBits-1:0]   req_hdr   [Ins];
  logic [IdWidth-1:0]   req_src   [Ins];  // its source, as a node id
  logic [OutWidth-1:0]  req_out   [Ins];

  // Per input: a header that arrived earlier and is still waiting, and the circuit it
  // joined once granted (the output it goes to).
  logic                wait_q [Ins];
  logic [HdrBits-1:0]  hdr_q  [Ins];
  logic                conn_q [Ins];
  logic [OutWidth-1:0] sel_q  [Ins];

  // Per output: reserved, by which input, for which header; the round-robin pointer.
  logic                busy_q  [Outs];
  logic [InWidth-1:0]  owner_q [Outs];
  logic [HdrBits-1:0]  hold_q  [Outs];
  logic [IdWidth-1:0]  rr_q    [Outs];

  // Per cube output: the header on its way to the neighbour, cycles still to go.
  logic                 fly_q  [Dims];
  logic [7:0]           hcnt_q [Dims];

  always_comb begin
    for (int unsigned p = 0; p < Dims; p++) in_setup[p] = setup_i[p*SetupBits +: SetupBits];
    for (int unsigned s = 0; s < Slots; s++) begin
      in_setup[Local+s] = inj_setup_i[s*SetupBits +: SetupBits];
    end
    setup_in = '0;
    hdr_in   = '0;
    diff     = '0;
    for (int unsigned p = 0; p < Ins; p++) begin
      setup_in    = in_setup[p];
      in_valid[p] = setup_in.valid;
      req[p]      = setup_in.valid || wait_q[p];
      hdr_in      = setup_in.valid ? setup_in.hdr : hdr_q[p];
      req_hdr[p]  = hdr_in;
      req_src[p]  = hdr_in.src[IdWidth-1:0];
      // E-cube: the lowest dimension still to correct, or the local port at the
      // destination.
      diff       = hdr_in.dst[IdWidth-1:0] ^ id_i;
      req_out[p] = OutWidth'(Eject);
      for (int unsigned d = Dims; d > 0; d--) begin
        if (diff[d-1]) req_out[p] = OutWidth'(d - 1);
      end
    end
  end

  // ---- arbitration: per free output, the best header asking for it ---------------------
  logic               grant    [Outs];
  logic [InWidth-1:0] grant_in [Outs];
  logic               granted  [Ins];  // per input: its header won this cycle

  always_comb begin
    arb_best = '0;
    arb_key  = '0;
    for (int unsigned o = 0; o < Outs; o++) begin
      grant[o]    = 1'b0;
      grant_in[o] = '0;
      arb_best    = '0;
      if (!busy_q[o]) begin
        for (int unsigned p = 0; p < Ins; p++) begin
          if (req[p] && req_out[p] == OutWidth'(o)) begin
            // Round-robin ranks sources by their distance past the pointer, modulo 2^D.
            arb_key = (arb_i == tsr_pkg::CubeArbRoundRobin) ? req_src[p] - rr_q[o]
                                                              : req_src[p];
            // Strictly better only, so equal keys go to the lowest input.
            if (!grant[o] || arb_key < arb_best) begin
              grant[o]    = 1'b1;
              grant_in[o] = InWidth'(p);
              arb_best    = arb_key;
            end
          end
        end
      end
    end
    for (int unsigned p = 0; p < Ins; p++) begin
      granted[p] = req[p] && grant[req_out[p]] && grant_in[req_out[p]] == InWidth'(p);
    end
  end

  // The crossbar as the stream sees it this cycle: a grant joins at once. Only the
  // ejection port can carry an element in its grant cycle, for a message from this tile
  // to itself (a path of no hops, whose stream starts at S).
  logic                conn_now  [Ins];
  logic [OutWidth-1:0] sel_now   [Ins];
  logic                busy_now  [Outs];
  logic [InWidth-1:0]  owner_now [Outs];

  always_comb begin
    thru_o = '0;
    for (int unsigned p = 0; p < Ins; p++) begin
      conn_now[p] = conn_q[p] || granted[p];
      sel_now[p]  = conn_q[p] ? sel_q[p] : req_out[p];
      // sel_q holds a req_out, never above Eject: the bit stays within input p's.
      if (conn_q[p]) thru_o[p*Outs + 32'(sel_q[p])] = 1'b1;
      if (granted[p] && req_out[p] == OutWidth'(Eject)) thru_o[p*Outs + Eject] = 1'b1;
      wait_o[p]                         = req[p] && !granted[p];
      want_o[p*OutWidth +: OutWidth]    = req_out[p];
      want_hdr_o[p*HdrBits +: HdrBits]  = req_hdr[p];
    end
    for (int unsigned o = 0; o < Outs; o++) begin
      busy_now[o]  = busy_q[o] || grant[o];
      owner_now[o] = busy_q[o] ? owner_q[o] : grant_in[o];
      grant_o[o]   = grant[o];
      busy_o[o]    = busy_q[o];
      hold_hdr_o[o*HdrBits +: HdrBits] = busy_q[o] ? hold_q[o] : req_hdr[grant_in[o]];
    end
  end

  // ---- stream: elements through the crossbar ------------------------------------------
  logic [StreamBits-1:0] in_stream [Ins];
  logic [DataWidth-1:0]  in_data   [Ins];
  logic                  tail_in   [Ins];   // per input: the tail crosses this cycle
  logic                  tail_out  [Outs];  // per output: likewise

  always_comb begin
    for (int unsigned p = 0; p < Dims; p++) begin
      in_stream[p] = stream_i[p*StreamBits +: StreamBits];
      in_data[p]   = data_i[p*DataWidth +: DataWidth];
    end
    for (int unsigned s = 0; s < Slots; s++) begin
      in_stream[Local+s] = inj_stream_i[s*StreamBits +: StreamBits];
      in_data[Local+s]   = inj_data_i[s*DataWidth +: DataWidth];
    end
    stream_in = '0;
    for (int unsigned p = 0; p < Ins; p++) begin
      stream_in  = in_stream[p];
      tail_in[p] = conn_now[p] && stream_in.valid && stream_in.last;
    end
    for (int unsigned o = 0; o < Outs; o++) begin
      tail_out[o] = busy_now[o] && tail_in[owner_now[o]] &&
                    sel_now[owner_now[o]] == OutWidth'(o);
      tail_o[o]   = tail_out[o];
    end
    ej_setup_o.valid = grant[Eject];
    ej_setup_o.hdr   = req_hdr[grant_in[Eject]];
    ej_stream_o      = '0;
    if (busy_now[Eject]) ej_stream_o = in_stream[owner_now[Eject]];
    ej_data_o        = in_data[owner_now[Eject]];
  end

  // Cube outputs: the header after tau cycles, the elements one register behind.
  logic [StreamBits-1:0] str_q  [Dims];
  logic [DataWidth-1:0]  data_q [Dims];

  always_comb begin
    setup_out = '0;
    for (int unsigned o = 0; o < Dims; o++) begin
      setup_out.valid = fly_q[o] && hcnt_q[o] == '0;
      setup_out.hdr   = hold_q[o];
      setup_o[o*SetupBits +: SetupBits]    = setup_out;
      stream_o[o*StreamBits +: StreamBits] = str_q[o];
      data_o[o*DataWidth +: DataWidth]     = data_q[o];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned p = 0; p < Ins; p++) begin
        wait_q[p] <= 1'b0;
        hdr_q[p]  <= '0;
        conn_q[p] <= 1'b0;
        sel_q[p]  <= '0;
      end
      for (int unsigned o = 0; o < Outs; o++) begin
        busy_q[o]  <= 1'b0;
        owner_q[o] <= '0;
        hold_q[o]  <= '0;
        rr_q[o]    <= '0;
      end
      for (int unsigned o = 0; o < Dims; o++) begin
        fly_q[o]  <= 1'b0;
        hcnt_q[o] <= '0;
        str_q[o]  <= '0;
        data_q[o] <= '0;
      end
    end else begin
      for (int unsigned p = 0; p < Ins; p++) begin
        if (in_valid[p]) hdr_q[p] <= req_hdr[p];  // the header arriving
        wait_q[p] <= req[p] && !granted[p];
        conn_q[p] <= conn_now[p] && !tail_in[p];
        if (granted[p]) sel_q[p] <= req_out[p];
      end
      for (int unsigned o = 0; o < Outs; o++) begin
        busy_q[o] <= busy_now[o] && !tail_out[o];
        if (grant[o]) begin
          owner_q[o] <= grant_in[o];
          hold_q[o]  <= req_hdr[grant_in[o]];
          if (arb_i == tsr_pkg::CubeArbRoundRobin) rr_q[o] <= req_src[grant_in[o]] + 1'b1;
        end
      end
      for (int unsigned o = 0; o < Dims; o++) begin
        if (grant[o]) begin
          fly_q[o]  <= 1'b1;
          hcnt_q[o] <= tau_i - 8'd1;
        end else if (fly_q[o]) begin
          if (hcnt_q[o] == '0) fly_q[o] <= 1'b0;
          else hcnt_q[o] <= hcnt_q[o] - 8'd1;
        end
        // Only the circuit's own input reaches the output; an unreserved one is idle.
        str_q[o]  <= '0;
        if (busy_now[o] && sel_now[owner_now[o]] == OutWidth'(o)) begin
          str_q[o] <= in_stream[owner_now[o]];
        end
        data_q[o] <= in_data[owner_now[o]];
      end
    end
  end

`ifndef SYNTHESIS
  TauPositive_A: assert property (@(posedge clk_i) disable iff (!rst_ni) tau_i != '0)
    else $error("tsr_cube_node: tau must be at least 1");
  // Per input: an element outside a circuit; a tail flag without an element; a header
  // onto an input that already holds one or carries a circuit (the neighbour's output
  // is reserved until the tail has crossed both nodes, so it cannot happen); a header
  // that turns back to a dimension at or below the one it came in on (e-cube never
  // does; the top's path-complete chain relies on it); a destination outside the cube.
  // Across the local inputs: headers of two slots asking at once (the interface sets up
  // one message at a time), elements of two slots in one cycle (a message set up ahead
  // streams after the previous one's tail).
  // Computed into vectors first: an assertion that indexes a struct field of an unpacked
  // array element makes Verilator 5.006 fail internally.
  // The fields are read through scalars, as in the logic above.
  /* verilator coverage_off */  // checks only: no toggle points
  logic [Ins-1:0]        stray, lone_last, hdr_clash, bad_order, bad_dst;
  /* verilator coverage_on */
  logic [Slots-1:0]      local_req, local_elem;
  /* verilator tracing_off */
  tsr_pkg::cube_stream_t chk_stream;  // an input's stream channel
  tsr_pkg::cube_hdr_t    chk_hdr;     // an input's header
  /* verilator tracing_on */
  always_comb begin
    chk_stream = '0;
    chk_hdr    = '0;
    for (int unsigned s = 0; s < Slots; s++) begin
      chk_stream    = in_stream[Local+s];
      local_req[s]  = req[Local+s];
      local_elem[s] = chk_stream.valid;
    end
    for (int unsigned p = 0; p < Ins; p++) begin
      chk_stream   = in_stream[p];
      chk_hdr      = req_hdr[p];
      stray[p]     = chk_stream.valid && !conn_now[p];
      lone_last[p] = chk_stream.last && !chk_stream.valid;
      hdr_clash[p] = in_valid[p] && (wait_q[p] || conn_q[p]);
      bad_order[p] = p < Dims && req[p] && 32'(req_out[p]) <= p;
      bad_dst[p]   = req[p] && (32'(chk_hdr.dst) >> Dims) != 0;
    end
  end
  StreamOnCircuit_A: assert property (@(posedge clk_i) disable iff (!rst_ni) stray == '0)
    else $error("tsr_cube_node %0d: element on unreserved inputs %b", id_i, stray);
  LastWithElement_A: assert property (@(posedge clk_i) disable iff (!rst_ni) lone_last == '0)
    else $error("tsr_cube_node %0d: last flag without an element on inputs %b", id_i, lone_last);
  HeaderOnFreeInput_A: assert property (@(posedge clk_i) disable iff (!rst_ni) hdr_clash == '0)
    else $error("tsr_cube_node %0d: header onto a busy input, inputs %b", id_i, hdr_clash);
  EcubeOrder_A: assert property (@(posedge clk_i) disable iff (!rst_ni) bad_order == '0)
    else $error("tsr_cube_node %0d: header routed back to a lower dimension, inputs %b", id_i,
                bad_order);
  DstInCube_A: assert property (@(posedge clk_i) disable iff (!rst_ni) bad_dst == '0)
    else $error("tsr_cube_node %0d: destination outside the cube, inputs %b", id_i, bad_dst);
  OneLocalHeader_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                     $onehot0(local_req))
    else $error("tsr_cube_node %0d: headers on local inputs %b at once", id_i, local_req);
  OneLocalStream_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                     $onehot0(local_elem))
    else $error("tsr_cube_node %0d: elements on local inputs %b at once", id_i, local_elem);

`ifndef FORMAL
  // User cover points (docs/rtl.md "Coverage"), per output: a header that asks for it
  // while a circuit holds it (blocked: it waits, holding its own links), two headers
  // asking for it at once while it is free (the arbitration decides), and a circuit
  // released by its tail.
  for (genvar go = 0; go < Outs; go++) begin : gen_cover_out
    /* verilator coverage_off */  // checks only: no toggle points
    logic [Ins-1:0] asks;
    /* verilator coverage_on */
    always_comb begin
      for (int unsigned i = 0; i < Ins; i++) asks[i] = req[i] && 32'(req_out[i]) == go;
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        Blocked_C: cover (asks != '0 && busy_q[go]);
        Contended_C: cover (!$onehot0(asks) && !busy_q[go]);
        Released_C: cover (tail_out[go]);
      end
    end
  end
`endif
`endif

`ifdef FORMAL
  // For the proofs by induction (rtl_models/formal/tsr_cube_node_formal.sv, docs/rtl.md
  // "Formal properties"); only Yosys -formal reads this. The inputs' checks above are the
  // environment's guarantees there. A circuit is an input joined to an output: each
  // joined input holds its output, each reserved output is held by one joined input (so
  // no two circuits share a link), and an output stays with its circuit, header and all,
  // until the tail crosses it, and is free the cycle after.
  logic [Outs-1:0]    f_kept_q, f_freed_q;
  logic [InWidth-1:0] f_owner_q [Outs];
  logic [HdrBits-1:0] f_hdr_q   [Outs];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_kept_q  <= '0;
      f_freed_q <= '0;
    end else begin
      for (int unsigned o = 0; o < Outs; o++) begin
        f_kept_q[o]  <= busy_q[o] && !tail_out[o];
        f_freed_q[o] <= tail_out[o];
        f_owner_q[o] <= owner_q[o];
        f_hdr_q[o]   <= hold_q[o];
      end
    end
  end

  // Per input or output, the cycles each rule is broken in (a labelled assertion in a loop
  // would name one cell per iteration).
  logic [Ins-1:0]  f_unheld, f_joined_waits, f_shared;
  logic [Outs-1:0] f_unowned, f_busy_grant, f_lost, f_kept_busy, f_regrant;
  always_comb begin
    f_shared = '0;
    for (int unsigned p = 0; p < Ins; p++) begin
      f_unheld[p] = conn_q[p] && !(32'(sel_q[p]) < Outs && busy_q[sel_q[p]]
                                   && 32'(owner_q[sel_q[p]]) == p);
      f_joined_waits[p] = wait_q[p] && conn_q[p];
      for (int unsigned q = p + 1; q < Ins; q++) begin
        if (conn_q[p] && conn_q[q] && sel_q[p] == sel_q[q]) f_shared[p] = 1'b1;
      end
    end
    for (int unsigned o = 0; o < Outs; o++) begin
      f_unowned[o] = busy_q[o] && !(32'(owner_q[o]) < Ins && conn_q[owner_q[o]]
                                    && 32'(sel_q[owner_q[o]]) == o);
      f_busy_grant[o] = grant[o] && busy_q[o];
      f_lost[o]       = f_kept_q[o] && !(busy_q[o] && owner_q[o] == f_owner_q[o]
                                         && hold_q[o] == f_hdr_q[o]);
      f_kept_busy[o]  = f_freed_q[o] && busy_q[o];
      f_regrant[o]    = f_freed_q[o] && grant[o];
    end
  end

  always_comb begin
    if (rst_ni) begin
      CircuitHoldsOutput_A: assert (f_unheld == '0);
      WaitingNotJoined_A: assert (f_joined_waits == '0);
      NoSharedLink_A: assert (f_shared == '0);
      OneCircuitPerOutput_A: assert (f_unowned == '0);
      GrantOnlyFree_A: assert (f_busy_grant == '0);
      HeldUntilTail_A: assert (f_lost == '0);
      FreeAfterTail_A: assert (f_kept_busy == '0);
      ReleasedEject_C: cover (f_regrant[Eject]);
      ReleasedLink_C: cover (f_regrant[0]);
    end
  end
`endif

endmodule
