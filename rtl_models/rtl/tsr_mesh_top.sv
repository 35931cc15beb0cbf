// A Rows x Cols wormhole mesh: a tsr_mesh_router and a tsr_mesh_ni per tile. Output p
// of a router feeds input p of its neighbour in direction p (inputs are named by the
// direction their flits travel); links off the mesh edge are tied off, and XY routing
// never asks for them. The testbench drives every NI's message and payload ports and
// takes every NI's received flits.
module tsr_mesh_top
  import tsr_pkg::*;
#(
  /// Mesh rows.
  parameter int unsigned Rows = 4,
  /// Mesh columns.
  parameter int unsigned Cols = 4,
  /// Payload bits per flit, a power of two from 8 to 1024.
  parameter int unsigned FlitWidth = 32,
  /// Flits per router input FIFO, at least 1.
  parameter int unsigned BufferDepth = 4,
  /// Cycles a head flit spends in a router before it may leave (router_delay).
  parameter int unsigned RouterDelay = 1,
  /// Tiles; derived, do not override.
  localparam int unsigned Tiles = Rows * Cols,
  /// Bits of a flit; derived, do not override.
  localparam int unsigned FlitBits = MeshCtlBits + FlitWidth
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Start-up cycles per message, every NI.
  input  logic [15:0]          alpha_i,
  // Per tile: the NI's message and payload ports.
  input  logic [Tiles-1:0]     msg_valid_i,
  output logic [Tiles-1:0]     msg_ready_o,
  input  logic [15:0]          msg_dst_i          [Tiles],
  input  logic [15:0]          msg_flits_i        [Tiles],
  input  logic [15:0]          msg_packet_flits_i [Tiles],
  input  logic [Tiles-1:0]     data_valid_i,
  input  logic [FlitWidth-1:0] data_i             [Tiles],
  output logic [Tiles-1:0]     data_ready_o,
  // Per tile: received flits, and the tile's readiness to take one.
  output logic [Tiles-1:0]     rx_valid_o,
  output logic [FlitBits-1:0]  rx_flit_o          [Tiles],
  input  logic [Tiles-1:0]     rx_ready_i,
  // Observability per router: the flits that crossed each output this cycle, and each
  // input's stuck front flit (tsr_mesh_router's stall_o, front_o).
  output logic [MeshPorts-1:0] link_valid_o       [Tiles],
  output logic [MeshPorts-1:0] link_head_o        [Tiles],
  output logic [MeshPorts-1:0] stall_o            [Tiles],
  output mesh_ctl_t            front_o            [Tiles][MeshPorts]
);

  if (Tiles < 1 || Tiles > 65536) begin : gen_shape_check
    $fatal(1, "tsr_mesh_top: needs 1 <= Rows * Cols <= 65536");
  end

  logic [MeshPorts-1:0] in_valid  [Tiles];
  logic [FlitBits-1:0]  in_flit   [Tiles][MeshPorts];
  logic [MeshPorts-1:0] credit_up [Tiles];  // router n's freed slots, per input
  logic [MeshPorts-1:0] out_valid [Tiles];
  logic [FlitBits-1:0]  out_flit  [Tiles][MeshPorts];
  logic [MeshLinks-1:0] credit_dn [Tiles];  // credits router n gets, per output link

  // Tile of the neighbour in direction p, or Tiles when the mesh ends there.
  function automatic int unsigned neighbour(int unsigned n, int unsigned p);
    int unsigned r, c;
    r = n / Cols;
    c = n % Cols;
    case (p)
      MeshEast:  return (c + 1 < Cols) ? n + 1 : Tiles;
      MeshWest:  return (c > 0) ? n - 1 : Tiles;
      MeshSouth: return (r + 1 < Rows) ? n + Cols : Tiles;
      default:   return (r > 0) ? n - Cols : Tiles;
    endcase
  endfunction

  for (genvar n = 0; n < Tiles; n++) begin : gen_tile
    // Links: input p comes from the neighbour opposite to p (p ^ 1), its output p.
    for (genvar p = 0; p < MeshLinks; p++) begin : gen_link
      localparam int unsigned From = neighbour(n, p ^ 1);
      localparam int unsigned To = neighbour(n, p);
      if (From < Tiles) begin : gen_in
        assign in_valid[n][p] = out_valid[From][p];
        assign in_flit[n][p]  = out_flit[From][p];
      end else begin : gen_in_edge
        assign in_valid[n][p] = 1'b0;
        assign in_flit[n][p]  = '0;
      end
      if (To < Tiles) begin : gen_credit
        assign credit_dn[n][p] = credit_up[To][p];
      end else begin : gen_credit_edge
        assign credit_dn[n][p] = 1'b0;
      end
    end

    logic inject_valid, eject_ready;
    logic [FlitBits-1:0] inject_flit;
    assign in_valid[n][MeshLocal] = inject_valid;
    assign in_flit[n][MeshLocal]  = inject_flit;

    tsr_mesh_router #(
      .Rows(Rows), .Cols(Cols), .FlitWidth(FlitWidth), .BufferDepth(BufferDepth),
      .RouterDelay(RouterDelay)
    ) i_router (
      .clk_i, .rst_ni,
      .row_i         (16'(n / Cols)),
      .col_i         (16'(n % Cols)),
      .in_valid_i    (in_valid[n]),
      .in_flit_i     (in_flit[n]),
      .credit_o      (credit_up[n]),
      .out_valid_o   (out_valid[n]),
      .out_flit_o    (out_flit[n]),
      .credit_i      (credit_dn[n]),
      .eject_ready_i (eject_ready),
      .stall_o       (stall_o[n]),
      .front_o       (front_o[n])
    );

    tsr_mesh_ni #(.FlitWidth(FlitWidth), .BufferDepth(BufferDepth)) i_ni (
      .clk_i, .rst_ni,
      .tile_i             (16'(n)),
      .alpha_i,
      .msg_valid_i        (msg_valid_i[n]),
      .msg_ready_o        (msg_ready_o[n]),
      .msg_dst_i          (msg_dst_i[n]),
      .msg_flits_i        (msg_flits_i[n]),
      .msg_packet_flits_i (msg_packet_flits_i[n]),
      .data_valid_i       (data_valid_i[n]),
      .data_i             (data_i[n]),
      .data_ready_o       (data_ready_o[n]),
      .inject_valid_o     (inject_valid),
      .inject_flit_o      (inject_flit),
      .inject_credit_i    (credit_up[n][MeshLocal]),
      .eject_valid_i      (out_valid[n][MeshLocal]),
      .eject_flit_i       (out_flit[n][MeshLocal]),
      .eject_ready_o      (eject_ready),
      .rx_valid_o         (rx_valid_o[n]),
      .rx_flit_o          (rx_flit_o[n]),
      .rx_ready_i         (rx_ready_i[n])
    );

    assign link_valid_o[n] = out_valid[n];
    for (genvar p = 0; p < MeshPorts; p++) begin : gen_head
      assign link_head_o[n][p] = out_valid[n][p] && out_flit[n][p][FlitBits-1];
    end
  end

endmodule
