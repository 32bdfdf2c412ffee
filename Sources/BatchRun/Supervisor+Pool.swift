#if canImport(Glibc)
import Glibc
#endif
import ContentHash
import FileStore
import JobQueue

/// The pool of workers: draining the queue, their messages, their exits, signals and deadlines.
extension Supervisor {
    /// Runs the pool until every worker has exited.
    func drain() throws(RunError) {
        // A signal that came while the run prepared: stop before starting any worker.
        handle(signals: SignalTrap.drain(signals))
        if phase == .draining {
            for _ in 0..<max(1, min(configuration.workers, total)) { try spawn() }
        }
        while !children.isEmpty {
            var descriptors = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            descriptors += children.map { pollfd(fd: $0.outputDescriptor, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 200)
            if descriptors[0].revents != 0 { handle(signals: SignalTrap.drain(signals)) }
            var exited: [ChildProcess] = []
            for (child, descriptor) in zip(children, descriptors.dropFirst()) where descriptor.revents != 0 {
                let (messages, ended) = child.readMessages()
                messages.forEach { handle($0, from: child) }
                if ended { exited.append(child) }
            }
            for child in exited {
                children.removeAll { $0 === child }
                try finish(child, waitStatus: child.wait())
            }
            enforceDeadlines()
            reporter.update(summary, total: total, elapsed: Self.monotonicSeconds() - started)
        }
        reporter.update(summary, total: total, elapsed: Self.monotonicSeconds() - started, force: true)
    }

    private func handle(signals: [Int32]) {
        for _ in signals {
            switch phase {
            case .draining, .windingDown:
                phase = .stopping(deadline: Self.monotonicSeconds() + configuration.stopDeadlineSeconds)
                summary.stoppedBecause = "interrupted by a signal"
                reporter.note("stopping: finishing the jobs in flight (up to \(Int(configuration.stopDeadlineSeconds)) s; signal again to abort)")
                children.forEach { $0.requestStop() }
            case .stopping:
                phase = .aborting
                reporter.note("aborting: returning the jobs in flight to the queue")
                children.forEach { kill($0.pid, SIGKILL) }
            case .aborting:
                break
            }
        }
    }

    private func handle(_ message: WorkerMessage, from child: ChildProcess) {
        switch message {
        case let .claimed(job, _):
            summary.claimed += 1
            child.claimedAny = true
            deathsBeforeAnyClaim = 0
            child.currentJob = job
            child.currentJobStart = Self.monotonicSeconds()
        case let .finished(job, rendered, contentHex):
            if rendered { summary.rendered += 1 } else { summary.cached += 1 }
            contentByJob[job] = SHA256Digest(hex: contentHex)
            if rendered, let content = SHA256Digest(hex: contentHex) { renderedKeys.insert(store.key(content: content).hex) }
            child.jobEnded(job)
        case let .incomplete(_, tilesFailed, cause):
            summary.noteIncomplete(cause: cause, tilesFailed: tilesFailed)
        case let .quarantined(job, failureClass, message):
            summary.failed += 1
            record(job: job, failureClass: failureClass, message: message)
            child.jobEnded(job)
        case let .returned(job, message):
            summary.returned += 1
            if !environmentalStop { reporter.note("\(job): returned to the queue: \(message)") }
            child.jobEnded(job)
        case let .superseded(job):
            // Not this run's content for the job: a newer copy in new/, if any, is rendered.
            contentByJob[job] = nil
            reporter.note(
                "\(job): its claim was removed while it rendered (a newer version was queued, or it was forgotten): not published as the track")
            child.jobEnded(job)
        case let .stop(message, temporary):
            if temporary && !environmentalStop {
                stopForEnvironment()
                summary.stoppedBecause = message
                reporter.note("stopping: \(message)")
            } else if !temporary {
                reporter.failure(job: "worker", failureClass: "error", message: message)
            }
            children.forEach { $0.requestStop() }
        case .outOfMemory:
            child.ranOutOfMemory = true
        }
    }

    /// A worker exited: whatever it still held goes back to new/ (as an attempt when it crashed
    /// or timed out, unchanged when the supervisor stopped it), and a replacement starts.
    private func finish(_ child: ChildProcess, waitStatus: Int32) throws(RunError) {
        let signaled = waitStatus & 0x7F != 0 && waitStatus & 0x7F != 0x7F
        let exitCode = (waitStatus >> 8) & 0xFF
        let deliberate = phase.isDeliberate(at: Self.monotonicSeconds())
        // A SIGKILL this supervisor did not send may be the whole run being killed (kill -9 of the
        // process group, the OOM killer, a node being drained): give it a moment to reach this
        // process too, so that the claims are left to the next run's reaper, which does not
        // blame the jobs, instead of being charged here as crashes.
        if signaled && waitStatus & 0x7F == SIGKILL && !child.killedForTimeout && !deliberate {
            usleep(250_000)
        }
        do {
            try returnClaims(of: child, waitStatus: waitStatus, deliberate: deliberate)
        } catch {
            throw .file(error)
        }
        if exitCode == 75 && !signaled { stopForEnvironment() }
        // A crash or a timeout kill gets a replacement worker; a worker that exited with an error
        // of its own (it said why) would only fail again, so the run stops instead.
        if !signaled && exitCode != 0 && exitCode != 75 && !workerFailed {
            failWorker()
            summary.stoppedBecause = "a worker failed (exit status \(exitCode))"
            children.forEach { $0.requestStop() }
        }
        // A worker that dies before its first claim was not killed by a track; replacing it
        // forever would be a crash loop (each death printing a backtrace into cron mail).
        if signaled && !child.claimedAny && !deliberate {
            deathsBeforeAnyClaim += 1
            if deathsBeforeAnyClaim >= 3 && !workerFailed {
                failWorker()
                summary.stoppedBecause = "\(deathsBeforeAnyClaim) workers in a row died (signal \(waitStatus & 0x7F)) before claiming a job"
                children.forEach { $0.requestStop() }
            }
        }
        if signaled && phase == .draining { try spawn() }
    }

    /// Gives back what an exited worker still held: unchanged when the supervisor stopped it
    /// (`deliberate`) or for the job it was publishing, as an attempt for the job it was
    /// rendering (crash, timeout), quarantined at once when it ran out of memory.
    private func returnClaims(of child: ChildProcess, waitStatus: Int32, deliberate: Bool) throws(FileError) {
        let signaled = waitStatus & 0x7F != 0 && waitStatus & 0x7F != 0x7F
        let exitCode = (waitStatus >> 8) & 0xFF
        let held = try queue.claims(heldByProcess: child.pid)
        // A worker publishes one job while it renders the next, so it may die holding two
        // claims. The attempt goes to the job it was rendering (its last `claimed` message);
        // the one being published only goes back, or an innocent job that keeps landing
        // beside a poisonous one would be quarantined with it. With no job being rendered the
        // death happened while publishing, and every claim it held counts, so a death that
        // repeats there still ends in quarantine rather than a loop.
        let culprit = child.currentJob.flatMap { current in held.contains { $0.name == current } ? current : nil }
        for claim in held {
            if deliberate || (culprit != nil && claim.name != culprit) {
                try queue.giveBack(claim, countsAsAttempt: false)
                summary.returned += 1
                continue
            }
            if child.ranOutOfMemory, claim.name == culprit {
                // Deterministic: the same track would exhaust the next worker the same way.
                let message =
                    "the worker ran out of memory at its \(configuration.workerMemoryFenceBytes >> 20) MiB fence (twice --memory-limit \(configuration.memoryLimitBytes >> 20)) on this track; raise --memory-limit to render it"
                try queue.quarantine(claim, failureClass: .limit, message: message)
                summary.failed += 1
                record(job: claim.name, failureClass: FailureClass.limit.rawValue, message: message)
                continue
            }
            let failureClass: FailureClass = child.killedForTimeout ? .timeout : .crash
            let message =
                child.killedForTimeout
                ? "ran past the \(Int(configuration.jobTimeoutSeconds)) s job timeout"
                : signaled
                    ? "the worker crashed on this job (signal \(waitStatus & 0x7F))"
                    : "the worker exited with status \(exitCode) on this job"
            try queue.giveBack(claim, countsAsAttempt: true, failureClass: failureClass, message: message)
            if claim.attempt >= queue.maxAttempts {
                summary.failed += 1
                record(job: claim.name, failureClass: failureClass.rawValue, message: "\(message) (\(claim.attempt) attempts)")
            } else {
                summary.returned += 1
                reporter.note("\(claim.name): \(message); retrying (attempt \(claim.attempt) of \(queue.maxAttempts))")
            }
        }
    }

    private func enforceDeadlines() {
        let now = Self.monotonicSeconds()
        for child in children {
            if child.currentJob != nil, !child.killedForTimeout, now - child.currentJobStart > configuration.jobTimeoutSeconds {
                child.killedForTimeout = true
                kill(child.pid, SIGKILL)
            }
            if case .stopping(let deadline) = phase, now >= deadline { kill(child.pid, SIGKILL) }
        }
    }

    /// A temporary condition stops the run: no worker is replaced from now on.
    private func stopForEnvironment() {
        environmentalStop = true
        if phase == .draining { phase = .windingDown }
    }

    /// A worker gave up for a reason of its own: no worker is replaced from now on.
    private func failWorker() {
        workerFailed = true
        if phase == .draining { phase = .windingDown }
    }
}
