// An R x C store-and-forward torus of tsr_torus_node: each node's output port p feeds
// the input port p ^ 1 of its neighbour in direction p, and that neighbour's credits
// for port p ^ 1 come back on the same link. Each node's local port has a network
// interface (tsr_torus_ni), through which the testbench (tb/torus) sends messages and
// takes the packets delivered. The rules are those of docs/rtl.md ("Store-and-forward
// torus"), which the TLM engine net::torus_engine follows cycle for cycle.
module tsr_torus_top
  import tsr_pkg::*;
#(
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
  localparam int unsigned CreditWidth = cnt_width(Buffers)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Start-up cycles of a hop (beta) and cycles per payload byte (tau), both >= 1.
  input  logic [15:0]            beta_i,
  input  logic [7:0]             tau_i,
  // Per tile: the NI's message and payload ports (a packet's payload at a time, from
  // message byte data_offset_o; tsr_torus_ni).
  input  logic [Tiles-1:0]       msg_valid_i,
  output logic [Tiles-1:0]       msg_ready_o,
  input  torus_msg_t             msg_i           [Tiles],
  input  logic [Tiles-1:0]       data_valid_i,
  input  logic [MaxBytes-1:0][7:0] data_i        [Tiles],
  output logic [15:0]            data_offset_o   [Tiles],
  output logic [Tiles-1:0]       data_ready_o,
  // Per tile: the packets delivered here, as they leave the local port (always taken).
  output torus_link_t            rx_o            [Tiles],
  // Per tile and input port: a packet for this tile is complete there from this cycle
  // (delivered; tsr_torus_node's arrive_o).
  output logic [TorusPorts-1:0]  arrive_o        [Tiles],
  output torus_hdr_t             arrive_hdr_o    [Tiles][TorusPorts],
  // Per tile and input port: the oldest stored packet, stuck this cycle, and the
  // outputs it still owes (tsr_torus_node's wait_o, wait_hdr_o, wait_ports_o).
  output logic [TorusPorts-1:0]  wait_o          [Tiles],
  output torus_hdr_t             wait_hdr_o      [Tiles][TorusPorts],
  output logic [TorusPorts-1:0]  wait_ports_o    [Tiles][TorusPorts],
  // Per tile and link output: what crosses the link this cycle (a hop's header in its
  // first cycle, then its payload bytes), for link statistics.
  output torus_link_t            link_o          [Tiles][TorusLinks],
  // Forwarding table write into tile tbl_tile_i.
  input  logic                   tbl_we_i,
  input  logic [15:0]            tbl_tile_i,
  input  logic [3:0]             tbl_tree_i,
  input  logic [TorusPorts-1:0]  tbl_mask_i
);

  torus_link_t            node_in     [Tiles][TorusLinks];
  torus_link_t            node_out    [Tiles][TorusPorts];
  logic [Tiles-1:0]       inj_valid;
  torus_hdr_t             inj_hdr     [Tiles];
  logic [MaxBytes-1:0][7:0] inj_data  [Tiles];
  logic [1:0][CreditWidth-1:0] node_credit [Tiles][TorusPorts];
  logic [1:0][CreditWidth-1:0] link_credit [Tiles][TorusLinks];

  for (genvar gt = 0; gt < Tiles; gt++) begin : gen_tile
    localparam int unsigned R = gt / Cols;
    localparam int unsigned C = gt % Cols;
    // The neighbour in each direction, numbered as runtime/routing.hpp does.
    localparam int unsigned Nb[TorusLinks] = '{
      R * Cols + (C + 1) % Cols,          // east
      R * Cols + (C + Cols - 1) % Cols,   // west
      ((R + 1) % Rows) * Cols + C,        // south
      ((R + Rows - 1) % Rows) * Cols + C  // north
    };
    for (genvar gp = 0; gp < TorusLinks; gp++) begin : gen_link
      assign node_in[gt][gp]     = node_out[Nb[gp]][gp ^ 1];
      assign link_credit[gt][gp] = node_credit[Nb[gp]][gp ^ 1];
      assign link_o[gt][gp]      = node_out[gt][gp];
    end

    // The local input's buffers all serve dateline class 0.
    tsr_torus_ni #(.MaxBytes(MaxBytes), .Buffers(Buffers)) i_ni (
      .clk_i,
      .rst_ni,
      .tile_i          (16'(gt)),
      .msg_valid_i     (msg_valid_i[gt]),
      .msg_ready_o     (msg_ready_o[gt]),
      .msg_i           (msg_i[gt]),
      .data_valid_i    (data_valid_i[gt]),
      .data_i          (data_i[gt]),
      .data_offset_o   (data_offset_o[gt]),
      .data_ready_o    (data_ready_o[gt]),
      .inj_valid_o     (inj_valid[gt]),
      .inj_hdr_o       (inj_hdr[gt]),
      .inj_data_o      (inj_data[gt]),
      .inject_credit_i (node_credit[gt][TorusLocal][0]),
      .eject_i         (node_out[gt][TorusLocal]),
      .rx_o            (rx_o[gt])
    );

    tsr_torus_node #(
      .Rows(Rows), .Cols(Cols), .Buffers(Buffers), .MaxBytes(MaxBytes), .Trees(Trees)
    ) i_node (
      .clk_i,
      .rst_ni,
      .row_i     (16'(R)),
      .col_i     (16'(C)),
      .beta_i,
      .tau_i,
      .in_i      (node_in[gt]),
      .inj_valid_i (inj_valid[gt]),
      .inj_hdr_i   (inj_hdr[gt]),
      .inj_data_i  (inj_data[gt]),
      .credit_o  (node_credit[gt]),
      .out_o     (node_out[gt]),
      .arrive_o     (arrive_o[gt]),
      .arrive_hdr_o (arrive_hdr_o[gt]),
      .wait_o       (wait_o[gt]),
      .wait_hdr_o   (wait_hdr_o[gt]),
      .wait_ports_o (wait_ports_o[gt]),
      .credit_i  (link_credit[gt]),
      .tbl_we_i  (tbl_we_i && tbl_tile_i == 16'(gt)),
      .tbl_tree_i,
      .tbl_mask_i
    );
  end

endmodule
