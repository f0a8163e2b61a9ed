"""Scalasca's Late Sender / Wrong Order history (issue 13, item 8) on constructed traces with
more than 100 pending late-sender instances (1 tick = 1 ns).

Scalasca 2.6, src/scout/generator/MPI.pattern (generated into Patterns_gen.cpp):

* PatternMPI_LateSender notifies LATE_SENDER for every late-sender instance (an MPI_Recv
  / MPI_Wait at its receive event, an MPI_Waitall/any/some at its Leave with its largest
  wait); PatternMPI_LateSenderWO::late_sender__cb appends it to a std::list of at most
  BUFFERSIZE = 100 entries, popping the oldest (pop_front) when the list is full.
* PatternMPI_LateSenderWO::post_recv__cb, at every receive event R' (after PatternMPI_LateSender
  handled R'), walks the list from its oldest entry and erases every instance whose send
  is later than R''s send (it->m_send->getTimestamp() > send->getTimestamp()), adding its
  idle time to mpi_latesender_wo at the instance's own call path; before notifying
  LATE_SENDER_WO it calls data->mLocal->add_event(it->m_recv, ROLE_RECV_LSWO).
* PatternMPI_LswoSame / PatternMPI_LswoDifferent read recv = get_event(ROLE_RECV_LSWO) and add
  the instance's idle to m_severity[recv.get_cnode()] if recv->getSource() == / !=
  event->getSource(). pearl's LocalData::add_event inserts into a std::map, which keeps an
  existing key, and CbData::postprocess clears the set only after the event: so for every
  instance one receive erases, `recv` is the FIRST instance it erased. Its call path gets
  the time and its source (MpiReceive_rep::getSource(), the sender's rank in the message's
  communicator) decides same vs different.

The expected values are worked out by hand in the comments, or by `scalasca_replay` below,
a direct transcription of those callbacks, never from cosydb's output.
"""

import random
from collections import Counter

import pytest
from conftest import evaluate as evaluate_entries
from conftest import loaded_db, property_rows
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database, evaluator

NS = 1e-9
BUFFERSIZE = 100
METRICS = ("mpi_latesender_wo", "mpi_lswo_same", "mpi_lswo_different")


def scalasca_replay(calls, size=BUFFERSIZE):
    """Scalasca 2.6's callbacks on one receiver's calls, in order. A call is
    (path, kind, enter, leave, messages), kind "MPI_Recv" or "MPI_Waitall", each message
    (source comm rank, send time). Returns {metric: Counter(path -> ticks)} and statistics."""
    buffer = []  # [path, source, send, idle, push number], oldest first
    severity = {metric: Counter() for metric in METRICS}
    stats = Counter()
    dropped = []  # popped instances, to see whether a later receive would have revealed them

    def push(instance):  # LateSenderWO::late_sender__cb
        if len(buffer) == size:
            dropped.append(buffer.pop(0))
            stats["dropped"] += 1
        stats["pushes"] += 1
        buffer.append(instance + [stats["pushes"]])
        stats["max_pending"] = max(stats["max_pending"], len(buffer))

    def check(source, send):  # LateSenderWO::post_recv__cb + LswoSame/LswoDifferent
        first = None  # ROLE_RECV_LSWO: set by the first erased instance only
        missed = [inst for inst in dropped if inst[2] > send]
        stats["missed_after_drop"] += len(missed)
        dropped[:] = [inst for inst in dropped if inst not in missed]
        erased = [inst for inst in buffer if inst[2] > send]
        for inst in erased:
            buffer.remove(inst)
            path, _, _, idle, pushed = inst
            # outlived a buffer's worth of later pushes, thanks to erased instances
            stats["kept_by_erasures"] += stats["pushes"] - pushed >= size
            severity["mpi_latesender_wo"][path] += idle
            first = first or inst
            split = "mpi_lswo_same" if first[1] == source else "mpi_lswo_different"
            severity[split][first[0]] += idle
            stats["moved"] += first[0] != path
            stats["source_differs"] += first[1] != inst[1]
        stats["multi"] += len(erased) > 1

    for path, kind, enter, leave, messages in calls:
        if kind == "MPI_Recv":  # LateSender::post_recv__cb notifies LATE_SENDER first
            ((source, send),) = messages
            if min(send, leave) - enter > 0:
                push([path, source, send, min(send, leave) - enter])
            check(source, send)
        else:  # a wait-multi: checks at each receive, its largest wait remembered at the Leave
            largest = None
            for source, send in messages:
                check(source, send)
                idle = min(send, leave) - enter
                if idle > 0 and (largest is None or idle > largest[3]):
                    largest = [path, source, send, idle]
            if largest:
                push(largest)
    return severity, stats


class Receiver:
    """Rank 0 receives message after message, one call per 1000-tick slot, each call inside
    its own instance of a region; the senders send each message at the given time (their
    sends sit on a 10-tick grid, so they never overlap). Tags are unique per message."""

    def __init__(self, nranks=4):
        self.b = TraceBuilder(nranks)
        self.nranks = nranks
        self.calls = []  # for scalasca_replay
        self.sends = []  # (sender, time, tag, comm)
        self.taken = set()  # (sender, time)
        self.slot = 0
        self.b[0].enter(0, "main")

    def free_time(self, sender, time):
        """The latest grid time <= time still free on the sender's timeline (the earliest
        after it if there is none)."""
        time = max(time - time % 10, 0)
        step = -10
        while (sender, time) in self.taken:
            time += step
            if time < 0:
                time, step = 0, 10
        self.taken.add((sender, time))
        return time

    def enter_time(self):
        return 1000 * (self.slot + 1)

    def recv(self, region, src, send, comm="MPI_COMM_WORLD"):
        """MPI_Recv in `region` entered at enter_time(); message sent at `send`."""
        enter, tag = self.enter_time(), len(self.sends)
        send = self.free_time(src, send)
        leave = max(enter, send) + 10
        self.sends.append((src, send, tag, comm))
        with self.b[0].open(region, enter - 5, enter + 995):
            self.b[0].mpi_recv(enter, leave, src=src, tag=tag, nbytes=8, comm=comm)
        self.calls.append(
            (f"prog/main/{region}/MPI_Recv", "MPI_Recv", enter, leave, [(self.b.comms[comm].index(src), send)])
        )
        self.slot += 1
        return send - enter

    def waitall(self, region, messages):
        """MPI_Irecv for each (src, send), then one MPI_Waitall completing them in that order."""
        enter = self.enter_time()
        timed = []
        for src, send in messages:
            send = self.free_time(src, send)
            while send > enter and any(send == other for _, other, _ in timed):
                send = self.free_time(src, send)  # no tie for the largest wait
            timed.append((src, send, len(self.sends) + len(timed)))
        leave = max([enter] + [send for _, send, _ in timed]) + 10
        with self.b[0].open(region, enter - 5, enter + 995):
            for i, (src, send, tag) in enumerate(timed):
                self.sends.append((src, send, tag, "MPI_COMM_WORLD"))
                self.b[0].mpi_irecv(enter - 4 + 2 * i, enter - 3 + 2 * i, src=src, tag=tag, nbytes=8, request=tag)
            self.b[0].mpi_wait(enter, leave, requests=[tag for _, _, tag in timed], call="MPI_Waitall")
        self.calls.append(
            (f"prog/main/{region}/MPI_Waitall", "MPI_Waitall", enter, leave, [(src, send) for src, send, _ in timed])
        )
        self.slot += 1

    def build(self):
        end = self.enter_time() + 1000
        for rank in range(1, self.nranks):
            self.b[rank].enter(0, "main")
        for src, send, tag, comm in sorted(self.sends, key=lambda s: (s[0], s[1])):
            self.b[src].mpi_send(send, send + 5, dst=0, tag=tag, nbytes=8, comm=comm)
        for rank in range(self.nranks):
            self.b[rank].leave(end)
        return self.b


def evaluate(builder, tmp_path):
    """{metric: {call path: value}} over all processes, and the time cube's
    {(metric, call path, rank): exclusive} of mpi_latesender_wo and its children."""
    db = loaded_db(builder, tmp_path)
    result = evaluate_entries(db, *METRICS)
    got = {metric: property_rows(result, metric) for metric in METRICS}
    con = database.connect(db)
    try:
        evaluation = evaluator.evaluate(con, catalog.load(), 1, {}, ["time_cube"])
        cube = {
            (m, p, rank): v
            for m, p, rank, v in evaluation.query("""
            SELECT t.metric, c.path, l.rank, t.exclusive FROM {{ ref('time_cube') }} t
            JOIN callpaths c USING (callpath_id) JOIN locations l USING (location_id)
            WHERE t.metric IN ('mpi_latesender_wo', 'mpi_lswo_same', 'mpi_lswo_different')""").fetchall()
        }
    finally:
        con.close()
    return got, cube


def approx(ticks):
    return {path: pytest.approx(value * NS, rel=1e-9, abs=1e-15) for path, value in ticks.items() if value}


@pytest.mark.parametrize("late", [99, 100])
def test_the_first_revealed_instance_decides_call_path_and_source(tmp_path, late):
    r = Receiver()
    r.recv("first", src=1, send=r.enter_time() + 100)  # instance 0: waits 100 for rank 1
    for _ in range(late):
        r.recv("second", src=2, send=r.enter_time() + 500)  # `late` instances from rank 2, 500 each
    r.recv("reveal", src=1, send=10)  # rank 1's message sent at 10 < every send
    got, cube = evaluate(r.build(), tmp_path)
    if late == 99:
        # the buffer holds instance 0 + 99 (never more than 100): R' erases all 100, oldest first.
        # mpi_latesender_wo: each at its own call path. The specializations: all at "first",
        # and "same" (instance 0 came from rank 1, like R'), though 99 came from rank 2
        expected = {
            "mpi_latesender_wo": {"prog/main/first/MPI_Recv": 100, "prog/main/second/MPI_Recv": 99 * 500},
            "mpi_lswo_same": {"prog/main/first/MPI_Recv": 100 + 99 * 500},
            "mpi_lswo_different": {},
        }
        # Scalasca's exclusive mpi_latesender_wo: -99 * 500 at "first", +99 * 500 at "second"
        assert cube[("mpi_latesender_wo", "prog/main/first/MPI_Recv", 0)] == pytest.approx(-99 * 500 * NS)
        assert cube[("mpi_latesender_wo", "prog/main/second/MPI_Recv", 0)] == pytest.approx(99 * 500 * NS)
    else:
        # the 100th rank-2 instance finds the buffer full and pops instance 0 (pop_front): R'
        # erases the 100 rank-2 instances, the first of them from rank 2 != rank 1: different
        expected = {
            "mpi_latesender_wo": {"prog/main/second/MPI_Recv": 100 * 500},
            "mpi_lswo_same": {},
            "mpi_lswo_different": {"prog/main/second/MPI_Recv": 100 * 500},
        }
        assert cube[("mpi_latesender_wo", "prog/main/second/MPI_Recv", 0)] == pytest.approx(0, abs=1e-15)
    for metric in METRICS:
        assert got[metric] == approx(expected[metric]), metric
    replayed, _ = scalasca_replay(r.calls)
    assert {m: dict(+replayed[m]) for m in METRICS} == expected  # the replay agrees with the hand count


def test_erased_instances_make_room_and_the_oldest_revealed_decides(tmp_path):
    r = Receiver()
    r.recv("first", src=1, send=r.enter_time() + 100)  # instance 0, send at 1100
    for _ in range(60):
        r.recv("second", src=2, send=r.enter_time() + 500)  # instances 1..60, sends 2500..61500
    r.recv("reveal", src=3, send=r.enter_time() - 30_000)  # sent at 32000: erases instances 31..60
    for _ in range(69):
        r.recv("second", src=2, send=r.enter_time() + 500)  # 69 more: 1 + 30 + 69 = 100 held
    r.recv("reveal", src=2, send=1000)  # sent at 1000 < 1100: erases all 100
    got, _ = evaluate(r.build(), tmp_path)
    # first R' (rank 3): 30 instances of rank 2 at "second", first erased is instance 31: different.
    # second R' (rank 2): instance 0 (rank 1, "first") is the first erased, so all 100 go to "first"
    # as different (rank 1 != rank 2), although 99 of them came from rank 2 like R'
    assert got["mpi_latesender_wo"] == approx({"prog/main/first/MPI_Recv": 100, "prog/main/second/MPI_Recv": 129 * 500})
    assert got["mpi_lswo_different"] == approx(
        {"prog/main/second/MPI_Recv": 30 * 500, "prog/main/first/MPI_Recv": 100 + 99 * 500}
    )
    assert got["mpi_lswo_same"] == {}
    # one more rank-2 instance before the second R' would have pushed instance 0 out
    replayed, stats = scalasca_replay(r.calls)
    assert stats["max_pending"] == BUFFERSIZE and stats["dropped"] == 0
    assert dict(+replayed["mpi_lswo_different"]) == {
        "prog/main/second/MPI_Recv": 30 * 500,
        "prog/main/first/MPI_Recv": 100 + 99 * 500,
    }


@pytest.mark.parametrize(
    "members, src, same",
    [
        ([3, 0, 1], 1, True),  # world rank 1 is rank 2 of "sub", like the instance's sender (world 2)
        ([0, 2], 2, False),  # world rank 2 itself, but rank 1 of "sub": a different source
    ],
)
def test_sources_are_compared_as_communicator_ranks(tmp_path, members, src, same):
    r = Receiver()
    r.b.communicator("sub", members)
    r.recv("first", src=2, send=r.enter_time() + 100)  # waits 100 for world rank 2 (rank 2)
    r.recv("reveal", src=src, send=10, comm="sub")  # sent at 10 on "sub"
    got, _ = evaluate(r.build(), tmp_path)
    # MpiReceive_rep::getSource() is the OTF2 sender field, a rank of the message's communicator
    hit = {"prog/main/first/MPI_Recv": pytest.approx(100 * NS)}
    assert got["mpi_latesender_wo"] == hit
    assert got["mpi_lswo_same"] == (hit if same else {})
    assert got["mpi_lswo_different"] == ({} if same else hit)


def random_run(seed, calls=700):
    """Rank 0: `calls` receives in regions a/b/c from ranks 1..3, mostly late, some
    MPI_Waitall of two messages, and early messages sent a little (reveal the newest few
    instances), some calls (reveal many, of several paths and senders) or any time (rarely;
    may reveal all) before their receive: instances older than 20 calls pile up past 100."""
    rng = random.Random(seed)
    r = Receiver()
    for _ in range(calls):
        enter = r.enter_time()

        def send_time():
            if rng.random() < 0.7:
                return enter + 10 * rng.randint(1, 80)  # late: waits 10..800
            kind = rng.random()
            if kind < 0.85:
                return enter - rng.randint(10, 4000)  # a little early
            if kind < 0.98:
                return enter - rng.randint(5_000, 20_000)  # 5..20 calls before
            return rng.randint(0, enter - 10)  # any time before

        region = rng.choice("abc")
        if rng.random() < 0.1:
            r.waitall(region, [(rng.randint(1, 3), send_time()), (rng.randint(1, 3), send_time())])
        else:
            r.recv(region, rng.randint(1, 3), send_time())
    r.recv("a", 1, 0)  # finally a message sent at the start reveals everything still remembered
    return r


@pytest.mark.parametrize("seed", [3, 6])
def test_random_history_matches_a_replay_of_scalasca(tmp_path, seed):
    r = random_run(seed)
    expected, stats = scalasca_replay(r.calls)
    # the scenario exercises what matters: a full buffer dropping instances that a later
    # receive would have revealed, instances counted after more than 100 later pushes (room
    # made by erased ones), receives that reveal several instances of other call paths and
    # of other senders than the first one
    assert stats["max_pending"] == BUFFERSIZE
    assert stats["missed_after_drop"] > 0 and stats["kept_by_erasures"] > 0
    assert stats["moved"] > 0 and stats["source_differs"] > 0 and stats["multi"] > 0
    assert all(expected[m] for m in METRICS)
    got, cube = evaluate(r.build(), tmp_path)
    for metric in METRICS:
        assert got[metric] == approx(expected[metric]), metric
    # the time cube: per call path mpi_latesender_wo keeps what its children filed elsewhere
    for path in set(expected["mpi_latesender_wo"]):
        rest = (
            expected["mpi_latesender_wo"][path] - expected["mpi_lswo_same"][path] - expected["mpi_lswo_different"][path]
        )
        assert cube[("mpi_latesender_wo", path, 0)] == pytest.approx(rest * NS, abs=1e-12), path
