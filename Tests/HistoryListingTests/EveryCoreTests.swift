import Glibc
import Synchronization
import Testing

@testable import HistoryListing

/// `EveryCore.map` keeps the items' order whatever thread computed them, on both of its paths.
@Suite struct EveryCoreTests {
    @Test(arguments: [EveryCore.Work.computing, .readingFiles])
    func manyItemsComeBackInTheirOrder(work: EveryCore.Work) {
        // Not a multiple of the 64-item chunk, so the last chunk is a short one.
        let items = Array(0..<10_007)
        let calls = Atomic<Int>(0)
        let outputs = EveryCore.map(items, work) { item -> String in
            calls.add(1, ordering: .relaxed)
            return "item \(item)"
        }
        #expect(outputs == items.map { "item \($0)" })
        #expect(calls.load(ordering: .relaxed) == items.count)
    }

    @Test func fewItemsStayOnTheCallingThreadAndKeepTheirOrder() {
        let items = Array(0..<(EveryCore.minimumItems - 1))
        #expect(EveryCore.map(items, .readingFiles) { $0 * 2 } == items.map { $0 * 2 })
        #expect(EveryCore.map([Int](), .readingFiles) { $0 }.isEmpty)
    }

    @Test func readingFilesRunsMoreThreadsThanCoresAtOnce() {
        // Each item waits, as a read from an uncached disk does; with one thread a core at most
        // as many would wait together as there are cores.
        let inFlight = Atomic<Int>(0), most = Atomic<Int>(0)
        _ = EveryCore.map(Array(0..<EveryCore.minimumItems * 2), .readingFiles) { item -> Int in
            let now = inFlight.add(1, ordering: .relaxed).newValue
            _ = most.max(now, ordering: .relaxed)
            var pause = timespec(tv_sec: 0, tv_nsec: 200_000)
            nanosleep(&pause, nil)
            inFlight.subtract(1, ordering: .relaxed)
            return item
        }
        #expect(most.load(ordering: .relaxed) > 2)
    }

    @Test func alongsideRunsBothAtOnceAndReturnsBoth() {
        // The foreground waits (up to 10 s) for the background to have started: it can only see
        // it while the two overlap, so a background run after the foreground would fail here.
        let started = Atomic<Bool>(false)
        let (background, sawBackground) = EveryCore.alongside(
            { () -> Int in
                started.store(true, ordering: .releasing)
                return 42
            },
            { () -> Bool in
                for _ in 0..<10_000 {
                    if started.load(ordering: .acquiring) { return true }
                    usleep(1_000)
                }
                return false
            })
        #expect(background == 42 && sawBackground)
    }
}

/// `DiskOrder`: a cold listing's reads by inode, equal inodes in their order, short lists as they are.
@Suite struct DiskOrderTests {
    @Test func manyItemsAreSortedByInodeAndEqualInodesKeepTheirOrder() {
        let count = EveryCore.minimumItems * 2
        // Inodes descending in pairs: item 2k and 2k + 1 share one.
        let items = (0..<count).map { (name: "job-\($0)", inode: UInt64(count - $0 / 2)) }
        let sorted = DiskOrder.sorted(items, by: \.inode)
        #expect(sorted.map(\.inode) == items.map(\.inode).sorted())
        #expect(sorted.prefix(2).map(\.name) == ["job-\(count - 2)", "job-\(count - 1)"])
        #expect(Set(sorted.map(\.name)) == Set(items.map(\.name)))
    }

    @Test func fewItemsStayAsTheyAre() {
        let items = [(name: "b", inode: UInt64(9)), (name: "a", inode: 1)]
        #expect(DiskOrder.sorted(items, by: \.inode).map(\.name) == ["b", "a"])
    }
}
