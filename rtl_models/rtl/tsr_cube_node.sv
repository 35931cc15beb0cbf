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
module tsr_cube_node
  import tsr_pkg::*;
#(
  /// Cube dimensions D, 1..16 (2^D nodes).
  parameter int unsigned Dims = 3,
  /// Bits of one data element.
  parameter int unsigned DataWidth = 8,
  /// Inputs: the D links, then the CubeSlots local inputs from D on; derived, do not
  /// override.
  localparam int unsigned Ins = Dims + CubeSlots,
  /// Outputs: the D links and the ejection port, whose index is D; derived, do not
  /// override.
  localparam int unsigned Outs = Dims + 1,
  /// Width of an input index; derived, do not override.
  localparam int unsigned InWidth = idx_width(Ins),
  /// Width of an output index; derived, do not override.
  localparam int unsigned OutWidth = idx_width(Outs),
  /// Width of a node id; derived, do not override.
  localparam int unsigned IdWidth = (Dims >= 1) ? Dims : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This node's id (one module serves every node of the cube).
  input  logic [IdWidth-1:0]   id_i,
  // Cycles a header takes over one link, at least 1; an input so one model serves
  // every timing a testbench checks.
  input  logic [7:0]           tau_i,
  // CubeArbLowestId or CubeArbRoundRobin.
  input  logic                 arb_i,
  // Link inputs, input d from the neighbour across dimension d.
  input  cube_setup_t          setup_i    [Dims],
  input  cube_stream_t         stream_i   [Dims],
  input  logic [DataWidth-1:0] data_i     [Dims],
  // Link outputs, output d to the neighbour across dimension d.
  output cube_setup_t          setup_o    [Dims],
  output cube_stream_t         stream_o   [Dims],
  output logic [DataWidth-1:0] data_o     [Dims],
  // Local injection (inputs D + s) from the network interface's message slots s. Packed
  // arrays: unpacked ones, written element by element in the top, make Verilator 5.006
  // copy the whole node's logic into both its input and its clock regions (twice the
  // C++, half the speed).
  input  cube_setup_t  [CubeSlots-1:0]                inj_setup_i,
  input  cube_stream_t [CubeSlots-1:0]                inj_stream_i,
  input  logic         [CubeSlots-1:0][DataWidth-1:0] inj_data_i,
  // Local ejection (output D): the header in the cycle the port is granted, then the
  // elements, each in the cycle it arrives.
  output cube_setup_t          ej_setup_o,
  output cube_stream_t         ej_stream_o,
  output logic [DataWidth-1:0] ej_data_o,
  // thru_o[p][o]: input p is connected to output o. A cube output counts from the cycle
  // after its grant, the ejection port from its grant, so the chain of thru_o along a
  // path is complete exactly in the cycle the destination grants its ejection port.
  output logic [Outs-1:0]      thru_o     [Ins],
  // Per output o: granted this cycle, reserved since an earlier cycle (the network
  // interface reads it: a message is set up ahead only onto a free first output), the
  // tail crossing towards it this cycle (free from the next), and the header of the
  // circuit that holds it or is granted it now.
  output logic [Outs-1:0]      grant_o,
  output logic [Outs-1:0]      busy_o,
  output logic [Outs-1:0]      tail_o,
  output cube_hdr_t            hold_hdr_o [Outs],
  // Observability, per input p: a header asking and not granted this cycle, the output
  // it asks for and the header.
  output logic [Ins-1:0]       wait_o,
  output logic [OutWidth-1:0]  want_o     [Ins],
  output cube_hdr_t            want_hdr_o [Ins]
);

  if (Dims < 1 || Dims > 16) begin : gen_dims_check
    $fatal(1, "tsr_cube_node: Dims must be 1..16");
  end
  if (DataWidth < 1) begin : gen_width_check
    $fatal(1, "tsr_cube_node: DataWidth must be at least 1");
  end

  localparam int unsigned Local = Dims;  // the first local input's index
  localparam int unsigned Eject = Dims;  // the ejection port's index

  // ---- setup: the header each input presents this cycle, and where it goes ------------
  cube_setup_t         in_setup [Ins];
  logic                req      [Ins];  // a header asks for an output this cycle
  cube_hdr_t           req_hdr  [Ins];
  logic [OutWidth-1:0] req_out  [Ins];

  // Per input: a header that arrived earlier and is still waiting, and the circuit it
  // joined once granted (the output it goes to).
  logic                wait_q [Ins];
  cube_hdr_t           hdr_q  [Ins];
  logic                conn_q [Ins];
  logic [OutWidth-1:0] sel_q  [Ins];

  // Per output: reserved, by which input, for which header; the round-robin pointer.
  logic                busy_q  [Outs];
  logic [InWidth-1:0]  owner_q [Outs];
  cube_hdr_t           hold_q  [Outs];
  logic [IdWidth-1:0]  rr_q    [Outs];

  // Per cube output: the header on its way to the neighbour, cycles still to go.
  logic                 fly_q  [Dims];
  logic [7:0]           hcnt_q [Dims];

  // E-cube: the lowest dimension still to correct, or the local port at the destination.
  function automatic logic [OutWidth-1:0] ecube(logic [IdWidth-1:0] dst);
    logic [IdWidth-1:0] diff;
    logic [OutWidth-1:0] port;
    diff = dst ^ id_i;
    port = OutWidth'(Eject);
    for (int d = Dims - 1; d >= 0; d--) begin
      if (diff[d]) port = OutWidth'(d);
    end
    return port;
  endfunction

  always_comb begin
    for (int p = 0; p < Dims; p++) in_setup[p] = setup_i[p];
    for (int s = 0; s < CubeSlots; s++) in_setup[Local+s] = inj_setup_i[s];
    for (int p = 0; p < Ins; p++) begin
      req[p]     = in_setup[p].valid || wait_q[p];
      req_hdr[p] = in_setup[p].valid ? in_setup[p].hdr : hdr_q[p];
      req_out[p] = ecube(req_hdr[p].dst[IdWidth-1:0]);
    end
  end

  // ---- arbitration: per free output, the best header asking for it ---------------------
  logic               grant    [Outs];
  logic [InWidth-1:0] grant_in [Outs];
  logic               granted  [Ins];  // per input: its header won this cycle

  always_comb begin
    for (int o = 0; o < Outs; o++) begin
      logic [IdWidth-1:0] best, key;
      grant[o]    = 1'b0;
      grant_in[o] = '0;
      best        = '0;
      key         = '0;
      if (!busy_q[o]) begin
        for (int p = 0; p < Ins; p++) begin
          if (req[p] && int'(req_out[p]) == o) begin
            // Round-robin ranks sources by their distance past the pointer, modulo 2^D.
            key = (arb_i == CubeArbRoundRobin) ? req_hdr[p].src[IdWidth-1:0] - rr_q[o]
                                               : req_hdr[p].src[IdWidth-1:0];
            // Strictly better only, so equal keys go to the lowest input.
            if (!grant[o] || key < best) begin
              grant[o]    = 1'b1;
              grant_in[o] = InWidth'(p);
              best        = key;
            end
          end
        end
      end
    end
    for (int p = 0; p < Ins; p++) begin
      granted[p] = req[p] && grant[req_out[p]] && int'(grant_in[req_out[p]]) == p;
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
    for (int p = 0; p < Ins; p++) begin
      conn_now[p] = conn_q[p] || granted[p];
      sel_now[p]  = conn_q[p] ? sel_q[p] : req_out[p];
      thru_o[p]   = '0;
      if (conn_q[p]) thru_o[p][sel_q[p]] = 1'b1;
      if (granted[p] && int'(req_out[p]) == Eject) thru_o[p][Eject] = 1'b1;
      wait_o[p]     = req[p] && !granted[p];
      want_o[p]     = req_out[p];
      want_hdr_o[p] = req_hdr[p];
    end
    for (int o = 0; o < Outs; o++) begin
      busy_now[o]  = busy_q[o] || grant[o];
      owner_now[o] = busy_q[o] ? owner_q[o] : grant_in[o];
      grant_o[o]   = grant[o];
      busy_o[o]    = busy_q[o];
      hold_hdr_o[o] = busy_q[o] ? hold_q[o] : req_hdr[grant_in[o]];
    end
  end

  // ---- stream: elements through the crossbar ------------------------------------------
  cube_stream_t         in_stream [Ins];
  logic [DataWidth-1:0] in_data   [Ins];
  logic                 tail_in   [Ins];   // per input: the tail crosses this cycle
  logic                 tail_out  [Outs];  // per output: likewise

  always_comb begin
    for (int p = 0; p < Dims; p++) begin
      in_stream[p] = stream_i[p];
      in_data[p]   = data_i[p];
    end
    for (int s = 0; s < CubeSlots; s++) begin
      in_stream[Local+s] = inj_stream_i[s];
      in_data[Local+s]   = inj_data_i[s];
    end
    for (int p = 0; p < Ins; p++) begin
      tail_in[p] = conn_now[p] && in_stream[p].valid && in_stream[p].last;
    end
    for (int o = 0; o < Outs; o++) begin
      tail_out[o] = busy_now[o] && tail_in[owner_now[o]] && int'(sel_now[owner_now[o]]) == o;
      tail_o[o]   = tail_out[o];
    end
    ej_setup_o.valid        = grant[Eject];
    ej_setup_o.hdr          = req_hdr[grant_in[Eject]];
    ej_stream_o             = '0;
    if (busy_now[Eject]) ej_stream_o = in_stream[owner_now[Eject]];
    ej_data_o               = in_data[owner_now[Eject]];
  end

  // Cube outputs: the header after tau cycles, the elements one register behind.
  cube_stream_t         str_q  [Dims];
  logic [DataWidth-1:0] data_q [Dims];

  always_comb begin
    for (int o = 0; o < Dims; o++) begin
      setup_o[o].valid = fly_q[o] && hcnt_q[o] == '0;
      setup_o[o].hdr   = hold_q[o];
      stream_o[o]      = str_q[o];
      data_o[o]        = data_q[o];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int p = 0; p < Ins; p++) begin
        wait_q[p] <= 1'b0;
        hdr_q[p]  <= '0;
        conn_q[p] <= 1'b0;
        sel_q[p]  <= '0;
      end
      for (int o = 0; o < Outs; o++) begin
        busy_q[o]  <= 1'b0;
        owner_q[o] <= '0;
        hold_q[o]  <= '0;
        rr_q[o]    <= '0;
      end
      for (int o = 0; o < Dims; o++) begin
        fly_q[o]  <= 1'b0;
        hcnt_q[o] <= '0;
        str_q[o]  <= '0;
        data_q[o] <= '0;
      end
    end else begin
      for (int p = 0; p < Ins; p++) begin
        if (in_setup[p].valid) hdr_q[p] <= in_setup[p].hdr;
        wait_q[p] <= req[p] && !granted[p];
        conn_q[p] <= conn_now[p] && !tail_in[p];
        if (granted[p]) sel_q[p] <= req_out[p];
      end
      for (int o = 0; o < Outs; o++) begin
        busy_q[o] <= busy_now[o] && !tail_out[o];
        if (grant[o]) begin
          owner_q[o] <= grant_in[o];
          hold_q[o]  <= req_hdr[grant_in[o]];
          if (arb_i == CubeArbRoundRobin) begin
            rr_q[o] <= req_hdr[grant_in[o]].src[IdWidth-1:0] + 1'b1;
          end
        end
      end
      for (int o = 0; o < Dims; o++) begin
        if (grant[o]) begin
          fly_q[o]  <= 1'b1;
          hcnt_q[o] <= tau_i - 8'd1;
        end else if (fly_q[o]) begin
          if (hcnt_q[o] == '0) fly_q[o] <= 1'b0;
          else hcnt_q[o] <= hcnt_q[o] - 8'd1;
        end
        // Only the circuit's own input reaches the output; an unreserved one is idle.
        str_q[o]  <= '0;
        if (busy_now[o] && int'(sel_now[owner_now[o]]) == o) str_q[o] <= in_stream[owner_now[o]];
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
  logic [Ins-1:0]       stray, lone_last, hdr_clash, bad_order, bad_dst;
  logic [CubeSlots-1:0] local_req, local_elem;
  always_comb begin
    for (int s = 0; s < CubeSlots; s++) begin
      local_req[s]  = req[Local+s];
      local_elem[s] = in_stream[Local+s].valid;
    end
    for (int p = 0; p < Ins; p++) begin
      stray[p]     = in_stream[p].valid && !conn_now[p];
      lone_last[p] = in_stream[p].last && !in_stream[p].valid;
      hdr_clash[p] = in_setup[p].valid && (wait_q[p] || conn_q[p]);
      bad_order[p] = p < Dims && req[p] && int'(req_out[p]) <= p;
      bad_dst[p]   = req[p] && (32'(req_hdr[p].dst) >> Dims) != 0;
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
`endif

endmodule
