// A circuit-switched D-cube: 2^D tsr_cube_node, each with its tsr_cube_ni. Node n's
// output across dimension d feeds input d of node n ^ (1 << d). The testbench drives the
// network interfaces (tb/cube).
//
// Ports are flat vectors (the subset Yosys 0.23 reads, docs/rtl.md "Style"): a per-tile
// port holds tile t's element at [t*W +: W]; a per-node-and-port one, port p of node t at
// [((t*P)+p)*W +: W] for P ports (Outs outputs, or Ins inputs). Headers and requests are
// tsr_pkg's cube_hdr_t (CubeHdrBits) and cube_req_t (CubeReqBits).
//
// Path complete. A source learns that its circuit reaches the destination in the cycle
// the destination grants its ejection port, through a combinational signal that runs
// backward along the crossbar connections (tsr_cube_node thru_o). It is built here, one
// scalar per node input (path[n][p]), rather than inside the node: an e-cube circuit
// entering a node on dimension d leaves on a higher one, so per input the chain is
// acyclic, whereas whole per-node port vectors would form a loop node -> neighbour ->
// node that Verilator reports (UNOPTFLAT) and settles by iteration. The array is split
// into its scalars for Verilator (split_var), so it orders them as the acyclic chain
// they are.
module tsr_cube_top #(
  /// Cube dimensions D, 1..16 (checked by tsr_cube_node).
  parameter int unsigned Dims = 3,
  /// Bits of one data element.
  parameter int unsigned DataWidth = 8,
  /// Tiles, 2^D (a single node when D is out of range, so that its check reports it);
  /// derived, do not override.
  localparam int unsigned Tiles = (Dims >= 1 && Dims <= 16) ? 1 << Dims : 1,
  /// Inputs per node, D links and the CubeSlots local inputs; derived, do not override.
  localparam int unsigned Ins = Dims + tsr_pkg::CubeSlots,
  /// Outputs per node, D links and the ejection port; derived, do not override.
  localparam int unsigned Outs = Dims + 1,
  /// Width of an output index; derived, do not override.
  localparam int unsigned OutWidth = tsr_pkg::idx_width(Outs),
  /// Width of a node id; derived, do not override.
  localparam int unsigned IdWidth = (Dims >= 1) ? Dims : 1,
  /// Links wired per node: D, or none when D is out of range; derived, do not override.
  localparam int unsigned Links = (Dims >= 1 && Dims <= 16) ? Dims : 0,
  /// Bits of a cube_hdr_t, cube_req_t, cube_setup_t and cube_stream_t; derived, do not
  /// override.
  localparam int unsigned HdrBits = tsr_pkg::CubeHdrBits,
  localparam int unsigned ReqBits = tsr_pkg::CubeReqBits,
  localparam int unsigned SetupBits = tsr_pkg::CubeSetupBits,
  localparam int unsigned StreamBits = tsr_pkg::CubeStreamBits,
  /// Message slots per interface; derived, do not override.
  localparam int unsigned Slots = tsr_pkg::CubeSlots
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Per tile t (at [t*16 +: 16]), the start-up cycles xi (>= 0) of its next message and
  // the part of them held with the path (xi_held <= xi), taken with the request
  // (tsr_cube_ni); header cycles per hop tau (>= 1), the arbitration (CubeArbLowestId or
  // CubeArbRoundRobin) and pre-setup (the interfaces take a message while the last one
  // is still handed over, tsr_cube_ni), all tiles alike.
  input  logic [Tiles*16-1:0]           xi_i,
  input  logic [Tiles*16-1:0]           xi_held_i,
  input  logic [7:0]                    tau_i,
  input  logic                          arb_i,
  input  logic                          presetup_i,
  // Per tile t, the network interface: message requests (bit t; the cube_req_t at
  // req_i[t*ReqBits +: ReqBits]) and their elements (tx_data_i[t*DataWidth +: DataWidth]).
  input  logic [Tiles-1:0]              req_valid_i,
  output logic [Tiles-1:0]              req_ready_o,
  input  logic [Tiles*ReqBits-1:0]      req_i,
  input  logic [Tiles-1:0]              tx_valid_i,
  output logic [Tiles-1:0]              tx_ready_o,
  input  logic [Tiles*DataWidth-1:0]    tx_data_i,
  // Per tile t, what arrives: a circuit set up to it (bit t; its cube_hdr_t at
  // rx_hdr_o[t*HdrBits +: HdrBits]), then its elements (rx_data_o[t*DataWidth +:
  // DataWidth]).
  output logic [Tiles-1:0]              rx_start_o,
  output logic [Tiles*HdrBits-1:0]      rx_hdr_o,
  output logic [Tiles-1:0]              rx_valid_o,
  output logic [Tiles-1:0]              rx_last_o,
  output logic [Tiles*DataWidth-1:0]    rx_data_o,
  // Per node t and output port o (D = ejection), bit t*Outs + o: granted this cycle,
  // reserved, the tail crossing towards it this cycle; the header of the circuit holding
  // or granted it at hold_hdr_o[((t*Outs)+o)*HdrBits +: HdrBits].
  output logic [Tiles*Outs-1:0]         grant_o,
  output logic [Tiles*Outs-1:0]         busy_o,
  output logic [Tiles*Outs-1:0]         tail_o,
  output logic [Tiles*Outs*HdrBits-1:0] hold_hdr_o,
  // Per node t and input port p (D + s = the interface's slot s): a header waiting (bit
  // t*Ins + p), for which output (want_o[((t*Ins)+p)*OutWidth +: OutWidth]), which
  // (want_hdr_o[((t*Ins)+p)*HdrBits +: HdrBits]).
  output logic [Tiles*Ins-1:0]          wait_o,
  output logic [Tiles*Ins*OutWidth-1:0] want_o,
  output logic [Tiles*Ins*HdrBits-1:0]  want_hdr_o
);

  // Links: node n's output d, the input d of its neighbour n ^ (1 << d). One array entry
  // per link: whole vectors written slice by slice from every node would make Verilator
  // 5.006 concatenate them anew, link by link, in every evaluation.
  logic [SetupBits-1:0]  link_setup  [Tiles][Dims];
  logic [StreamBits-1:0] link_stream [Tiles][Dims];
  logic [DataWidth-1:0]  link_data   [Tiles][Dims];
  // path[n][p]: the circuit through input p of node n reaches its destination now.
  logic                  path        [Tiles][Ins] /* verilator split_var */;

  // The nodes' and interfaces' outputs per tile, for the flat ports (packed at the end).
  logic [Outs-1:0]          node_grant    [Tiles];
  logic [Outs-1:0]          node_busy     [Tiles];
  logic [Outs-1:0]          node_tail     [Tiles];
  logic [Outs*HdrBits-1:0]  node_hold_hdr [Tiles];
  logic [Ins-1:0]           node_wait     [Tiles];
  logic [Ins*OutWidth-1:0]  node_want     [Tiles];
  logic [Ins*HdrBits-1:0]   node_want_hdr [Tiles];
  logic                     ni_req_ready  [Tiles];
  logic                     ni_tx_ready   [Tiles];
  logic                     ni_rx_start   [Tiles];
  logic [HdrBits-1:0]       ni_rx_hdr     [Tiles];
  logic                     ni_rx_valid   [Tiles];
  logic                     ni_rx_last    [Tiles];
  logic [DataWidth-1:0]     ni_rx_data    [Tiles];

  for (genvar gt = 0; gt < Tiles; gt++) begin : gen_tile
    logic [Dims*SetupBits-1:0]   in_setup;  // the node's link inputs and outputs
    logic [Dims*StreamBits-1:0]  in_stream;
    logic [Dims*DataWidth-1:0]   in_data;
    logic [Dims*SetupBits-1:0]   out_setup;
    logic [Dims*StreamBits-1:0]  out_stream;
    logic [Dims*DataWidth-1:0]   out_data;
    logic [Slots*SetupBits-1:0]  inj_setup;  // whole vectors: see tsr_cube_node
    logic [Slots*StreamBits-1:0] inj_stream;
    logic [Slots*DataWidth-1:0]  inj_data;
    logic [Slots-1:0]            inj_path;
    logic [SetupBits-1:0]        ej_setup;
    logic [StreamBits-1:0]       ej_stream;
    logic [DataWidth-1:0]        ej_data;
    logic [Ins*Outs-1:0]         thru;  // the node's thru_o

    for (genvar gd = 0; gd < Links; gd++) begin : gen_link
      assign link_setup[gt][gd]  = out_setup[gd*SetupBits +: SetupBits];
      assign link_stream[gt][gd] = out_stream[gd*StreamBits +: StreamBits];
      assign link_data[gt][gd]   = out_data[gd*DataWidth +: DataWidth];
      assign in_setup[gd*SetupBits +: SetupBits]    = link_setup[gt ^ (1 << gd)][gd];
      assign in_stream[gd*StreamBits +: StreamBits] = link_stream[gt ^ (1 << gd)][gd];
      assign in_data[gd*DataWidth +: DataWidth]     = link_data[gt ^ (1 << gd)][gd];
    end

    // Input d can lead only to a higher dimension (e-cube; tsr_cube_node asserts it), a
    // local input to any.
    for (genvar gp = 0; gp < Ins; gp++) begin : gen_port
      logic [Outs-1:0] reach;
      assign reach[Dims] = 1'b1;
      for (genvar go = 0; go < Links; go++) begin : gen_out
        if (gp >= Dims || go > gp) begin : gen_up
          assign reach[go] = path[gt ^ (1 << go)][go];
        end else begin : gen_down
          assign reach[go] = 1'b0;
        end
      end
      assign path[gt][gp] = |(thru[gp*Outs +: Outs] & reach);
    end
    for (genvar gs = 0; gs < Slots; gs++) begin : gen_slot
      assign inj_path[gs] = path[gt][Dims+gs];
    end

    tsr_cube_node #(
      .Dims(Dims), .DataWidth(DataWidth)
    ) i_node (
      .clk_i,
      .rst_ni,
      .id_i         (IdWidth'(gt)),
      .tau_i,
      .arb_i,
      .setup_i      (in_setup),
      .stream_i     (in_stream),
      .data_i       (in_data),
      .setup_o      (out_setup),
      .stream_o     (out_stream),
      .data_o       (out_data),
      .inj_setup_i  (inj_setup),
      .inj_stream_i (inj_stream),
      .inj_data_i   (inj_data),
      .ej_setup_o   (ej_setup),
      .ej_stream_o  (ej_stream),
      .ej_data_o    (ej_data),
      .thru_o       (thru),
      .grant_o      (node_grant[gt]),
      .busy_o       (node_busy[gt]),
      .tail_o       (node_tail[gt]),
      .hold_hdr_o   (node_hold_hdr[gt]),
      .wait_o       (node_wait[gt]),
      .want_o       (node_want[gt]),
      .want_hdr_o   (node_want_hdr[gt])
    );

    tsr_cube_ni #(
      .Dims(Dims), .DataWidth(DataWidth)
    ) i_ni (
      .clk_i,
      .rst_ni,
      .id_i         (16'(gt)),
      .xi_i         (xi_i[gt*16 +: 16]),
      .xi_held_i    (xi_held_i[gt*16 +: 16]),
      .presetup_i,
      .req_valid_i  (req_valid_i[gt]),
      .req_ready_o  (ni_req_ready[gt]),
      .req_i        (req_i[gt*ReqBits +: ReqBits]),
      .tx_valid_i   (tx_valid_i[gt]),
      .tx_ready_o   (ni_tx_ready[gt]),
      .tx_data_i    (tx_data_i[gt*DataWidth +: DataWidth]),
      .inj_setup_o  (inj_setup),
      .inj_stream_o (inj_stream),
      .inj_data_o   (inj_data),
      .path_i       (inj_path),
      .out_busy_i   (node_busy[gt]),
      .ej_setup_i   (ej_setup),
      .ej_stream_i  (ej_stream),
      .ej_data_i    (ej_data),
      .rx_start_o   (ni_rx_start[gt]),
      .rx_hdr_o     (ni_rx_hdr[gt]),
      .rx_valid_o   (ni_rx_valid[gt]),
      .rx_last_o    (ni_rx_last[gt]),
      .rx_data_o    (ni_rx_data[gt])
    );
  end

  // The flat output ports, tile by tile, one block per port. Connected slice by slice
  // to the nodes and interfaces, a port would be concatenated anew in every evaluation,
  // tile by tile (Verilator 5.006 merges adjacent slice assignments into one growing
  // concatenation: three times the run time of the 7-cube). A loop over all 128 tiles
  // of the 7-cube is not unrolled (more than 64 iterations) and inserts every slice at a
  // computed offset; loops over groups of at most 32 tiles, one port per block, are
  // unrolled, and each slice becomes a few word copies.
  localparam int unsigned PackGroup = (Tiles < 32) ? Tiles : 32;  // divides Tiles, 2^D

`define TSR_CUBE_PACK(OUT, W, ELEM) \
  always_comb begin \
    for (int unsigned g = 0; g < Tiles; g += PackGroup) begin \
      for (int unsigned i = 0; i < PackGroup; i++) begin \
        OUT[(g+i)*(W) +: (W)] = ELEM[g+i]; \
      end \
    end \
  end

  `TSR_CUBE_PACK(req_ready_o, 1, ni_req_ready)
  `TSR_CUBE_PACK(tx_ready_o, 1, ni_tx_ready)
  `TSR_CUBE_PACK(rx_start_o, 1, ni_rx_start)
  `TSR_CUBE_PACK(rx_hdr_o, HdrBits, ni_rx_hdr)
  `TSR_CUBE_PACK(rx_valid_o, 1, ni_rx_valid)
  `TSR_CUBE_PACK(rx_last_o, 1, ni_rx_last)
  `TSR_CUBE_PACK(rx_data_o, DataWidth, ni_rx_data)
  `TSR_CUBE_PACK(grant_o, Outs, node_grant)
  `TSR_CUBE_PACK(busy_o, Outs, node_busy)
  `TSR_CUBE_PACK(tail_o, Outs, node_tail)
  `TSR_CUBE_PACK(hold_hdr_o, Outs*HdrBits, node_hold_hdr)
  `TSR_CUBE_PACK(wait_o, Ins, node_wait)
  `TSR_CUBE_PACK(want_o, Ins*OutWidth, node_want)
  `TSR_CUBE_PACK(want_hdr_o, Ins*HdrBits, node_want_hdr)
`undef TSR_CUBE_PACK

endmodule
