// An R x C store-and-forward torus of tsr_torus_node: each node's output port p feeds
// the input port p ^ 1 of its neighbour in direction p, and that neighbour's credits
// for port p ^ 1 come back on the same link. Each node's local port has a network
// interface (tsr_torus_ni), through which the testbench (tb/torus) sends messages and
// takes the packets delivered. The rules are those of docs/rtl.md ("Store-and-forward
// torus"), which the TLM engine net::torus_engine follows cycle for cycle.
module tsr_torus_top #(
  /// Torus rows.
  parameter int unsigned Rows = 4,
  /// Torus columns.
  parameter int unsigned Cols = 4,
  /// Packet buffers per input port, at least 2 (two dateline classes).
  parameter int unsigned Buffers = 4,
  /// Largest payload in bytes.
  parameter int unsigned MaxBytes = 64,
  /// Entries of each node's forwarding table, 1..16.
  parameter int unsigned Trees = 4,
  /// Tiles; derived, do not override.
  localparam int unsigned Tiles = Rows * Cols,
  /// Width of the credit counts; derived, do not override.
  localparam int unsigned CreditWidth = tsr_pkg::cnt_width(Buffers)
) (
  input  logic                                                        clk_i,
  input  logic                                                        rst_ni,
  // Start-up cycles of a hop (beta) and cycles per payload byte (tau), both >= 1.
  input  logic [15:0]                                                 beta_i,
  input  logic [7:0]                                                  tau_i,
  // Per tile t: the NI's message and payload ports (a packet's payload at a time, from
  // message byte data_offset_o; tsr_torus_ni). Bit t of the 1-bit ports; the message at
  // msg_i[t * TorusMsgBits +: TorusMsgBits]; payload byte b at data_i[(t * MaxBytes + b)
  // * 8 +: 8]; the offset at data_offset_o[t * 16 +: 16].
  input  logic [Tiles-1:0]                                            msg_valid_i,
  output logic [Tiles-1:0]                                            msg_ready_o,
  input  logic [Tiles*tsr_pkg::TorusMsgBits-1:0]                      msg_i,
  input  logic [Tiles-1:0]                                            data_valid_i,
  input  logic [Tiles*MaxBytes*8-1:0]                                 data_i,
  output logic [Tiles*16-1:0]                                         data_offset_o,
  output logic [Tiles-1:0]                                            data_ready_o,
  // Per tile t: the packets delivered here, as they leave the local port (always taken),
  // at rx_o[t * TorusLinkBits +: TorusLinkBits].
  output logic [Tiles*tsr_pkg::TorusLinkBits-1:0]                     rx_o,
  // Per tile t and input port p, element e = t * TorusPorts + p: a packet for this tile
  // is complete there from this cycle (delivered; tsr_torus_node's arrive_o), bit e, its
  // header at arrive_hdr_o[e * TorusHdrBits +: TorusHdrBits].
  output logic [Tiles*tsr_pkg::TorusPorts-1:0]                        arrive_o,
  output logic [Tiles*tsr_pkg::TorusPorts*tsr_pkg::TorusHdrBits-1:0]  arrive_hdr_o,
  // Per tile t and input port p, element e = t * TorusPorts + p as for arrive_o: the
  // oldest stored packet is stuck this cycle (bit e of wait_o), its header at
  // wait_hdr_o[e * TorusHdrBits +: TorusHdrBits] and the outputs it still owes, a mask at
  // wait_ports_o[e * TorusPorts +: TorusPorts] (tsr_torus_node's wait_o, wait_hdr_o,
  // wait_ports_o).
  output logic [Tiles*tsr_pkg::TorusPorts-1:0]                        wait_o,
  output logic [Tiles*tsr_pkg::TorusPorts*tsr_pkg::TorusHdrBits-1:0]  wait_hdr_o,
  output logic [Tiles*tsr_pkg::TorusPorts*tsr_pkg::TorusPorts-1:0]    wait_ports_o,
  // Per tile t and link output l: what crosses the link this cycle (a hop's header in
  // its first cycle, then its payload bytes), for link statistics, at link_o[(t *
  // TorusLinks + l) * TorusLinkBits +: TorusLinkBits].
  output logic [Tiles*tsr_pkg::TorusLinks*tsr_pkg::TorusLinkBits-1:0] link_o,
  // Forwarding table write into tile tbl_tile_i.
  input  logic                                                        tbl_we_i,
  input  logic [15:0]                                                 tbl_tile_i,
  input  logic [3:0]                                                  tbl_tree_i,
  input  logic [tsr_pkg::TorusPorts-1:0]                              tbl_mask_i
);

  localparam int unsigned Ports = tsr_pkg::TorusPorts;
  localparam int unsigned Links = tsr_pkg::TorusLinks;
  localparam int unsigned Local = tsr_pkg::TorusLocal;
  localparam int unsigned HdrBits = tsr_pkg::TorusHdrBits;
  localparam int unsigned LinkBits = tsr_pkg::TorusLinkBits;
  localparam int unsigned MsgBits = tsr_pkg::TorusMsgBits;

  // The neighbour of tile `tile` in direction `dir` (TorusEast..TorusNorth), numbered
  // as runtime/routing.hpp does. A function of the direction, not a localparam array:
  // Yosys 0.23 reads no assignment patterns.
  // Evaluated at elaboration only: no coverage points (docs/rtl.md "Coverage").
  /* verilator coverage_off */
  function automatic int unsigned neighbour(int unsigned tile, int unsigned dir);
    case (dir)
      tsr_pkg::TorusEast:  neighbour = (tile / Cols) * Cols + (tile % Cols + 1) % Cols;
      tsr_pkg::TorusWest:  neighbour = (tile / Cols) * Cols + (tile % Cols + Cols - 1) % Cols;
      tsr_pkg::TorusSouth: neighbour = ((tile / Cols + 1) % Rows) * Cols + tile % Cols;
      default:             neighbour = ((tile / Cols + Rows - 1) % Rows) * Cols + tile % Cols;
    endcase
  endfunction
  /* verilator coverage_on */

  // Per tile: its node's outputs (links and ejection port) and the credits its inputs
  // give back, read by the neighbours; laid out as the node's ports.
  logic [Ports*LinkBits-1:0]      node_out    [Tiles];
  logic [Ports*2*CreditWidth-1:0] node_credit [Tiles];
  // Per tile: what its NI and node show the tile and the testbench, laid out as their
  // ports. The loops below pack them into the flat ports: a slice of a port assigned
  // per tile would make Verilator 5.006 (its DFG pass) build the port as a chain of ever
  // wider concatenations, copying a quadratic number of words at every evaluation.
  logic                      msg_ready   [Tiles];
  logic [15:0]               data_offset [Tiles];
  logic                      data_ready  [Tiles];
  logic [LinkBits-1:0]       rx          [Tiles];
  logic [Ports-1:0]          arrive      [Tiles];
  logic [Ports*HdrBits-1:0]  arrive_hdr  [Tiles];
  logic [Ports-1:0]          waits       [Tiles];
  logic [Ports*HdrBits-1:0]  wait_hdr    [Tiles];
  logic [Ports*Ports-1:0]    wait_ports  [Tiles];

  for (genvar gt = 0; gt < Tiles; gt++) begin : gen_tile
    localparam int unsigned R = gt / Cols;
    localparam int unsigned C = gt % Cols;

    logic [Links*LinkBits-1:0]      link_in;
    logic [Links*2*CreditWidth-1:0] link_credit;
    logic                           inj_valid;
    tsr_pkg::torus_hdr_t            inj_hdr;
    logic [MaxBytes*8-1:0]          inj_data;

    for (genvar gp = 0; gp < Links; gp++) begin : gen_link
      localparam int unsigned Nb = neighbour(gt, gp);
      assign link_in[gp*LinkBits+:LinkBits] = node_out[Nb][(gp^1)*LinkBits+:LinkBits];
      assign link_credit[gp*2*CreditWidth+:2*CreditWidth] =
          node_credit[Nb][(gp^1)*2*CreditWidth+:2*CreditWidth];
    end

    // The local input's buffers all serve dateline class 0.
    tsr_torus_ni #(.MaxBytes(MaxBytes), .Buffers(Buffers), .Trees(Trees)) i_ni (
      .clk_i,
      .rst_ni,
      .tile_i          (16'(gt)),
      .msg_valid_i     (msg_valid_i[gt]),
      .msg_ready_o     (msg_ready[gt]),
      .msg_i           (msg_i[gt*MsgBits+:MsgBits]),
      .data_valid_i    (data_valid_i[gt]),
      .data_i          (data_i[gt*MaxBytes*8+:MaxBytes*8]),
      .data_offset_o   (data_offset[gt]),
      .data_ready_o    (data_ready[gt]),
      .inj_valid_o     (inj_valid),
      .inj_hdr_o       (inj_hdr),
      .inj_data_o      (inj_data),
      .inject_credit_i (node_credit[gt][Local*2*CreditWidth+:CreditWidth]),
      .eject_i         (node_out[gt][Local*LinkBits+:LinkBits]),
      .rx_o            (rx[gt])
    );

    tsr_torus_node #(
      .Rows(Rows), .Cols(Cols), .Buffers(Buffers), .MaxBytes(MaxBytes), .Trees(Trees)
    ) i_node (
      .clk_i,
      .rst_ni,
      .row_i        (16'(R)),
      .col_i        (16'(C)),
      .beta_i,
      .tau_i,
      .in_i         (link_in),
      .inj_valid_i  (inj_valid),
      .inj_hdr_i    (inj_hdr),
      .inj_data_i   (inj_data),
      .credit_o     (node_credit[gt]),
      .out_o        (node_out[gt]),
      .arrive_o     (arrive[gt]),
      .arrive_hdr_o (arrive_hdr[gt]),
      .wait_o       (waits[gt]),
      .wait_hdr_o   (wait_hdr[gt]),
      .wait_ports_o (wait_ports[gt]),
      .credit_i     (link_credit),
      .tbl_we_i     (tbl_we_i && tbl_tile_i == 16'(gt)),
      .tbl_tree_i,
      .tbl_mask_i
    );
  end

  // The flat ports, a tile's element (or its TorusPorts or TorusLinks elements) at a
  // time; a block per port, so that Verilator schedules each with its own sources only.
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) msg_ready_o[t] = msg_ready[t];
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) data_offset_o[t*16+:16] = data_offset[t];
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) data_ready_o[t] = data_ready[t];
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) rx_o[t*LinkBits+:LinkBits] = rx[t];
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) arrive_o[t*Ports+:Ports] = arrive[t];
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) begin
      arrive_hdr_o[t*Ports*HdrBits+:Ports*HdrBits] = arrive_hdr[t];
    end
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) wait_o[t*Ports+:Ports] = waits[t];
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) begin
      wait_hdr_o[t*Ports*HdrBits+:Ports*HdrBits] = wait_hdr[t];
    end
  end
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) begin
      wait_ports_o[t*Ports*Ports+:Ports*Ports] = wait_ports[t];
    end
  end
  // The node's link outputs are the first TorusLinks of its out_o, in link_o's order.
  always_comb begin
    for (int unsigned t = 0; t < Tiles; t++) begin
      link_o[t*Links*LinkBits+:Links*LinkBits] = node_out[t][Links*LinkBits-1:0];
    end
  end

endmodule
