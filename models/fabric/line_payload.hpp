// One line's access as a TLM-2.0 generic payload: what the fabric's probes and the tlm_target
// node send.
#pragma once

#include <tlm>

#include "common/mem_access.hpp"

namespace starnuma {

// A kLineBytes read or write of `address` over `data` (kLineBytes long), response not yet set.
inline void set_line_payload(tlm::tlm_generic_payload& p, MemOp op, uint64_t address, uint8_t* data) {
  p.set_command(op == MemOp::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(kLineBytes);
  p.set_streaming_width(kLineBytes);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace starnuma
