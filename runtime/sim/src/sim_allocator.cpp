// Simulated-device memory, and catching host code that touches it.
//
// Each allocation is a memfd mapped twice: a PROT_NONE view whose address is
// the tensor's data pointer, and a read-write view the simulator's own kernels
// use (host_view()). A host-side `t.data_ptr<float>()[0]` therefore faults,
// like dereferencing a CUDA pointer would, and the SIGSEGV handler below turns
// the fault into a message naming the cause instead of a bare crash.
#include "sim_internal.h"
#include "torch_compat.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include <execinfo.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace todevice {
namespace sim {
namespace detail {
namespace {

// Stack frames kept per allocation, so a host access can name where the
// memory was made: the program's frame lies below LibTorch's dispatcher, about
// 20 to 40 frames down.
constexpr int kAllocationFrames = 48;

struct Mapping {
  char* none; // handed out as the data pointer
  char* rw;   // used by the simulator
  std::size_t length; // page-rounded
  std::size_t nbytes; // requested
  void* made_at[kAllocationFrames]; // backtrace() of the allocation, unfiltered
  int made_at_count;
};

// Ranges of the PROT_NONE views, for the fault handler. A spinlock rather than
// a mutex because the handler takes it too; the faulting thread can never hold
// it (nothing dereferences device memory while holding it).
std::atomic_flag ranges_lock = ATOMIC_FLAG_INIT;
std::map<std::uintptr_t, const Mapping*>& ranges() {
  static auto* m = new std::map<std::uintptr_t, const Mapping*>(); // never destroyed:
  return *m; // tensors may be freed during static destruction
}
struct RangesGuard {
  RangesGuard() {
    while (ranges_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~RangesGuard() { ranges_lock.clear(std::memory_order_release); }
};

void delete_mapping(void* ctx) {
  auto* m = static_cast<Mapping*>(ctx);
  if (m == nullptr)
    return;
  {
    RangesGuard g;
    ranges().erase(reinterpret_cast<std::uintptr_t>(m->none));
  }
  munmap(m->none, m->length);
  munmap(m->rw, m->length);
  delete m;
}

// The simulator's mapping whose PROT_NONE view holds `addr`, or null.
const Mapping* mapping_containing(std::uintptr_t addr) {
  RangesGuard g;
  auto it = ranges().upper_bound(addr);
  if (it == ranges().begin())
    return nullptr;
  --it;
  return addr < it->first + it->second->length ? it->second : nullptr;
}

// The read-write view of the byte at `p` when the simulator allocated it;
// otherwise (host memory) `p` itself.
char* rw_address(const void* p) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (const Mapping* m = mapping_containing(addr))
    return m->rw + (addr - reinterpret_cast<std::uintptr_t>(m->none));
  return static_cast<char*>(const_cast<void*>(p));
}

class SimAllocator final : public compat::Allocator {
 protected:
  // LibTorch 2.x copies storages through the allocator (copy-on-write
  // materialisation, Storage clones): device memory is copied through its
  // read-write view, as a device-to-device copy would.
  void copy_bytes(void* dest, const void* src, std::size_t count) const override {
    if (count != 0)
      std::memcpy(rw_address(dest), rw_address(src), count);
  }

  c10::DataPtr allocate_bytes(std::size_t nbytes) const override {
    const c10::Device dev(kSimType, 0);
    if (nbytes == 0) // like the CUDA allocator: no memory, null pointer
      return {nullptr, nullptr, &delete_mapping, dev};
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t length = (nbytes + page - 1) / page * page;
    int fd = memfd_create("todevice_sim", MFD_CLOEXEC);
    TORCH_CHECK(fd >= 0, "todevice_sim: memfd_create failed: ", std::strerror(errno));
    if (ftruncate(fd, static_cast<off_t>(length)) != 0) {
      close(fd);
      TORCH_CHECK(false, "todevice_sim: out of memory allocating ", nbytes, " bytes");
    }
    void* none = mmap(nullptr, length, PROT_NONE, MAP_SHARED, fd, 0);
    void* rw = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd); // the mappings keep the memory alive
    if (none == MAP_FAILED || rw == MAP_FAILED) {
      if (none != MAP_FAILED)
        munmap(none, length);
      if (rw != MAP_FAILED)
        munmap(rw, length);
      TORCH_CHECK(false, "todevice_sim: mmap failed: ", std::strerror(errno));
    }
    auto* m = new Mapping{static_cast<char*>(none), static_cast<char*>(rw), length, nbytes, {}, 0};
    // Raw return addresses only (a few microseconds): symbolized if a host
    // access to this memory is ever reported.
    m->made_at_count = backtrace(m->made_at, kAllocationFrames);
    {
      RangesGuard g;
      ranges()[reinterpret_cast<std::uintptr_t>(none)] = m;
    }
    return {none, m, &delete_mapping, dev};
  }

 public:
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }
};

// --- fault handler -------------------------------------------------------------
struct sigaction previous_action;

// "at wav.cc:160 in WavWriter::Write: byte 0 of a 61440-byte allocation made
// at enhance.cc:72 in Process": the program's place of the access (the
// faulting frame, or its nearest caller in the program when the access is in
// a library such as memcpy) and of the allocation; the bare address where
// neither is known. Runs in the fault handler, which symbolizes with
// addr2line (not async-signal-safe): the process aborts right after, and the
// faulting code was reading tensor memory, not holding an allocator's lock.
std::string where_host_access(std::uintptr_t addr, const Mapping& hit, void* pc) {
  void* frames[64];
  const int count = backtrace(frames, 64);
  // The interrupted frame's address is the faulting instruction itself, not a
  // return address: the symbolizer looks one byte before each address (the
  // call), so this one is handed over one byte on (else an instrumented build
  // can land on code without a line).
  for (int i = 0; i < count; ++i)
    if (frames[i] == pc)
      frames[i] = static_cast<char*>(pc) + 1;
  const std::vector<std::string> sites =
      describe_sites({program_addresses_of(frames, count, 16),
                      program_addresses_of(hit.made_at, hit.made_at_count, 16)});
  const std::string offset = std::to_string(addr - reinterpret_cast<std::uintptr_t>(hit.none));
  const std::string size = std::to_string(hit.nbytes);
  // A site is "file:line in f", or "in f" without debug info.
  auto placed = [](const std::string& site) { return site.rfind("in ", 0) == 0 ? site : "at " + site; };
  std::ostringstream at;
  if (sites[0].empty())
    at << "at 0x" << std::hex << addr << std::dec << " (byte " << offset << " of a " << size
       << "-byte allocation on sim:0";
  else
    at << placed(sites[0]) << ": byte " << offset << " of a " << size << "-byte allocation";
  if (!sites[1].empty())
    at << " made " << placed(sites[1]);
  if (sites[0].empty())
    at << ")";
  return at.str();
}

void on_segv(int sig, siginfo_t* info, void* uctx) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const Mapping* hit = mapping_containing(addr);
  if (hit == nullptr) {
    // Not ours: restore the previous disposition; returning re-executes the
    // faulting instruction, which then reaches it.
    sigaction(sig, &previous_action, nullptr);
    return;
  }
  const char* verb = "accessed";
  void* pc = nullptr;
#if defined(__x86_64__)
  // Bit 1 of the page-fault error code is set for writes.
  const auto* uc = static_cast<const ucontext_t*>(uctx);
  verb = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? "wrote" : "read";
  pc = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
#else
  (void)uctx;
#endif
  std::string message = std::string("todevice_sim: host code ") + verb +
                        " simulated-device memory " + where_host_access(addr, *hit, pc) +
                        "; call .cpu() first: a tensor on the device cannot be accessed through "
                        "data_ptr()/accessor() from host code, as on a GPU\n";
  ssize_t ignored = write(STDERR_FILENO, message.data(), message.size());
  (void)ignored;
  std::abort();
}

} // namespace

c10::Allocator* allocator() {
  static SimAllocator the_allocator; // function-local: used from static initializers
  return &the_allocator;
}

void* host_view(const c10::DataPtr& p) {
  if (p.get_deleter() == &delete_mapping && p.get_context() != nullptr) {
    const auto* m = static_cast<const Mapping*>(p.get_context());
    return m->rw + (static_cast<char*>(p.get()) - m->none);
  }
  return p.get();
}

void install_fault_handler() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = &on_segv;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_action);
}

} // namespace detail
} // namespace sim
} // namespace todevice
