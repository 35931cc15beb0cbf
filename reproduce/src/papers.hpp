// The papers `tessera reproduce` covers, each a function building its report.
#pragma once

#include "tessera/reproduce/reproduce.hpp"

namespace tessera::reproduce {

paper_report grama(const grama_options& o);

}  // namespace tessera::reproduce
