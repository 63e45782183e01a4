// Fabric::target, a TLM-2.0 base-protocol target (IEEE 1666-2011 chapters 14-16). A transaction
// is checked before anything is timed or counted, so a refused one leaves no trace and never stops
// the simulation; an accepted one is split into the lines it touches, each timed by its own home
// as an access would be, all issued at once (as the page copy issues its lines), and the
// transaction completes with its last line. Data moves only with functional memory; without it
// the fabric is timing-only: reads return zeros, writes are dropped.
#include <algorithm>

#include "fabric/fabric.hpp"

namespace starnuma {

namespace {

// The requester a transaction comes from, and the path record it asks for.
struct Origin {
  size_t requester;
  PathTrace* trace;
};

Origin origin_of(int port, const tlm::tlm_generic_payload& payload) {
  if (const RequesterExtension* ext = payload.get_extension<RequesterExtension>()) return {ext->requester, ext->trace};
  return {static_cast<size_t>(port), nullptr};
}

// Timing-only reads see the memory every address has before it is written.
const FunctionalMemory kNeverWritten;

Time to_time(const sc_core::sc_time& t) { return Time::from_ps(static_cast<int64_t>(t.value())); }

}  // namespace

tlm::tlm_response_status Fabric::admit(size_t r, const tlm::tlm_generic_payload& p) const {
  if (r >= requesters_.size() || r >= paths_.size()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (!p.is_read() && !p.is_write()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  const uint64_t length = p.get_data_length();
  if (length == 0 || !p.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  const uint64_t first = p.get_address();
  if (first >= map_end() || length > map_end() - first) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  // The map is contiguous from 0: every range between the first and last byte's is touched.
  const size_t from = static_cast<size_t>(home_of(first) - ranges_.data());
  const size_t to = static_cast<size_t>(home_of(first + length - 1) - ranges_.data());
  for (size_t k = from; k <= to; ++k)
    if (!reachable_[r][k]) return tlm::TLM_ADDRESS_ERROR_RESPONSE;  // another host's memory
  // A streaming burst (one address read or written repeatedly) is no memory access.
  if (p.get_streaming_width() < length) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (p.get_byte_enable_ptr() && p.get_byte_enable_length() == 0) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

void Fabric::b_transport(int port, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  if (p.get_command() == tlm::TLM_IGNORE_COMMAND) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const Origin o = origin_of(port, p);
  const tlm::tlm_response_status status = admit(o.requester, p);
  if (status != tlm::TLM_OK_RESPONSE) {
    p.set_response_status(status);
    return;
  }
  const uint64_t first = p.get_address(), end = first + p.get_data_length();
  const Time issue = to_time(sc_core::sc_time_stamp() + delay);
  const MemOp op = p.is_write() ? MemOp::Write : MemOp::Read;
  Time done = issue;
  for (uint64_t line = first / kLineBytes * kLineBytes; line < end; line += kLineBytes)
    done = std::max(done, access(o.requester, MemAccess{op, std::max(line, first), o.trace}, issue));
  delay += sc_core::sc_time::from_value(static_cast<sc_dt::uint64>((done - issue).ps()));

  const ByteEnables enables{p.get_byte_enable_ptr(), p.get_byte_enable_length()};
  if (op == MemOp::Read)
    (memory_ ? *memory_ : kNeverWritten).read(first, p.get_data_ptr(), p.get_data_length(), enables);
  else if (memory_) memory_->write(first, p.get_data_ptr(), p.get_data_length(), enables);
  p.set_dmi_allowed(memory_ != nullptr);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Early completion: the whole transaction is served on BEGIN_REQ, as an LT target may
// (IEEE 1666-2011 15.2.3). No other phase can follow a TLM_COMPLETED.
tlm::tlm_sync_enum Fabric::nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                           sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  b_transport(port, p, delay);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

// Debug access: no timing, no statistics, no requester; the bytes inside the map are moved and
// counted (byte enables and streaming width do not apply, IEEE 1666-2011 11.3.4).
unsigned Fabric::transport_dbg(int, tlm::tlm_generic_payload& p) {
  const uint64_t address = p.get_address();
  if (!memory_ || !p.get_data_ptr() || p.get_command() == tlm::TLM_IGNORE_COMMAND || address >= map_end()) return 0;
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(p.get_data_length(), map_end() - address));
  if (p.is_read()) memory_->read(address, p.get_data_ptr(), n);
  else if (p.is_write()) memory_->write(address, p.get_data_ptr(), n);
  else return 0;
  return n;
}

// DMI grants one page of the store at a time (pages are allocated apart), read and write, with the
// requester's unloaded latency to the page's home as the access latency.
bool Fabric::get_direct_mem_ptr(int port, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  dmi.init();
  const uint64_t address = p.get_address();
  const Range* range = home_of(address);
  if (!memory_ || !range) {  // the whole space, or the part past the map, never has DMI
    dmi.set_start_address(memory_ ? map_end() : 0);
    dmi.set_end_address(~uint64_t{0});
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  const uint64_t page = address / kPageBytes * kPageBytes;
  dmi.set_dmi_ptr(memory_->page(address));
  dmi.set_start_address(page);
  dmi.set_end_address(page + kPageBytes - 1);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  const size_t r = origin_of(port, p).requester, index = static_cast<size_t>(range - ranges_.data());
  if (r < paths_.size() && reachable_[r][index]) {
    dmi.set_read_latency(unloaded_latency(r, index).to_sc());
    dmi.set_write_latency(unloaded_latency(r, index).to_sc());
  }
  return true;
}

void Fabric::move_bytes(uint64_t from, uint64_t to, uint64_t bytes) {
  // First the pointers out, then the storage: a granted pointer never outlives its page.
  for (unsigned i = 0; i < target.size(); ++i) {
    target[static_cast<int>(i)]->invalidate_direct_mem_ptr(from, from + bytes - 1);
    target[static_cast<int>(i)]->invalidate_direct_mem_ptr(to, to + bytes - 1);
  }
  memory_->move(from, to, bytes);
}

}  // namespace starnuma
