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

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace todevice {
namespace sim {
namespace detail {
namespace {

struct Mapping {
  char* none; // handed out as the data pointer
  char* rw;   // used by the simulator
  std::size_t length; // page-rounded
  std::size_t nbytes; // requested
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
    auto* m = new Mapping{static_cast<char*>(none), static_cast<char*>(rw), length, nbytes};
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

// snprintf is not async-signal-safe; these helpers are.
char* append(char* p, const char* s) {
  while (*s)
    *p++ = *s++;
  return p;
}
char* append_number(char* p, std::uintptr_t v, unsigned base) {
  char digits[32];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v != 0);
  if (base == 16)
    p = append(p, "0x");
  while (n > 0)
    *p++ = digits[--n];
  return p;
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
#if defined(__x86_64__)
  // Bit 1 of the page-fault error code is set for writes.
  const auto* uc = static_cast<const ucontext_t*>(uctx);
  verb = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? "wrote" : "read";
#else
  (void)uctx;
#endif
  char msg[512];
  char* p = append(msg, "todevice_sim: host code ");
  p = append(p, verb);
  p = append(p, " simulated-device memory at ");
  p = append_number(p, addr, 16);
  p = append(p, " (byte ");
  p = append_number(p, addr - reinterpret_cast<std::uintptr_t>(hit->none), 10);
  p = append(p, " of a ");
  p = append_number(p, hit->nbytes, 10);
  p = append(p, "-byte allocation on sim:0); call .cpu() first: a tensor on the "
                "device cannot be accessed through data_ptr()/accessor() from host "
                "code, as on a GPU\n");
  ssize_t ignored = write(STDERR_FILENO, msg, static_cast<std::size_t>(p - msg));
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
