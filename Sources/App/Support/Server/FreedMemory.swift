/// What the server does with memory it frees. glibc hands the free top of a thread's heap back
/// to the kernel (`madvise`) as soon as it passes 128 KiB, and the next batch faults those pages
/// in again: under `scripts/bench` order load, `perf` put a large share of the server's CPU in
/// that `madvise`, its TLB flushes and the page faults after, on the thread that commits.
public enum FreedMemory {
    /// Keeps up to 64 MiB of freed memory per heap for the next allocations instead.
    public static func keepForReuse() {
        #if os(Linux)
        _ = mallopt(trimThreshold, 64 << 20)
        #endif
    }
}

#if os(Linux)
// glibc's malloc.h, which the Glibc module does not bring in.
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
/// `M_TRIM_THRESHOLD`.
private let trimThreshold: Int32 = -1
#endif
