import Testing

@testable import BatchRun

/// The environment a worker is started with: the huge-page tunable added, a user's own kept.
@Suite struct HeapRetentionTests {
    @Test func workersGetHugePagesWhenTheUserSetNoTunables() {
        let environment = HeapRetention.workerEnvironment(["PATH=/usr/bin", "HOME=/root"])
        #expect(environment == ["PATH=/usr/bin", "HOME=/root", "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"])
    }

    @Test func aUsersOtherTunablesAreKeptAndExtended() {
        let environment = HeapRetention.workerEnvironment(["GLIBC_TUNABLES=glibc.malloc.arena_max=2", "PATH=/bin"])
        #expect(environment == ["GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", "PATH=/bin"])
    }

    @Test func aUsersOwnHugePageChoiceWins() {
        let turnedOff = ["GLIBC_TUNABLES=glibc.malloc.hugetlb=0"]
        #expect(HeapRetention.workerEnvironment(turnedOff) == turnedOff)
        #expect(HeapRetention.workerEnvironment(["GLIBC_TUNABLES="]) == ["GLIBC_TUNABLES=glibc.malloc.hugetlb=1"])
    }
}
