"""verigate on a local Ray cluster (a head and two extra nodes), byte-identical to one process.

Ray binds to the host's routable address even when told 127.0.0.1, so these
tests run only inside a network namespace that has nothing but loopback:

    unshare -n sh -c 'ip link set lo up && python -m pytest runtime/python/tests/test_ray.py'

Outside one they refuse to start Ray (skipped, with the reason).
"""

import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import JUDGMENTS, REGISTRY, RESPONSES

ray = pytest.importorskip("ray")


def loopback_only():
    return [name for _, name in socket.if_nameindex()] == ["lo"]


pytestmark = pytest.mark.skipif(
    not loopback_only(),
    reason="Ray tests run only in a loopback-only network namespace "
    "(unshare -n sh -c 'ip link set lo up && pytest ...'); refusing to start Ray here",
)


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False},
    )
    workers = [cluster.add_node(num_cpus=1) for _ in range(2)]
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    cluster.wait_for_nodes()
    yield cluster, workers
    ray.shutdown()
    cluster.shutdown()


def test_the_merged_output_is_the_single_process_bytes(cluster, cli_results, tmp_path):
    import verigate.ray

    out = tmp_path / "results.jsonl"
    summary = verigate.ray.grade(RESPONSES, out, judgments=JUDGMENTS, registry=REGISTRY, shard_lines=100)
    assert out.read_bytes() == cli_results
    assert summary["parts"] == 8 and summary["skipped"] == 0 and summary["records"] == 701


def test_a_worker_node_killed_mid_job_loses_and_repeats_nothing(cluster, cli_results, tmp_path):
    import verigate.ray

    ray_cluster, workers = cluster
    out, parts = tmp_path / "results.jsonl", tmp_path / "parts"
    done = {}
    job = threading.Thread(
        target=lambda: done.update(verigate.ray.grade(
            RESPONSES, out, judgments=JUDGMENTS, registry=REGISTRY, shard_lines=50, parts_dir=parts)))
    job.start()
    while not list(parts.glob("*.jsonl")):  # some work is under way everywhere
        time.sleep(0.2)
    ray_cluster.remove_node(workers[1])
    job.join()
    workers[1] = ray_cluster.add_node(num_cpus=1)
    assert out.read_bytes() == cli_results
    assert done["records"] == 701


def test_a_killed_driver_reruns_skipping_complete_parts(cluster, cli_results, tmp_path):
    out, parts = tmp_path / "results.jsonl", tmp_path / "parts"
    driver = (
        "import ray, sys, verigate.ray\n"
        f"ray.init(address={cluster[0].address!r}, log_to_driver=False)\n"
        f"s = verigate.ray.grade({str(RESPONSES)!r}, {str(out)!r}, judgments={str(JUDGMENTS)!r}, "
        f"registry={str(REGISTRY)!r}, shard_lines=50, parts_dir={str(parts)!r})\n"
        "print(s['skipped'])\n"
    )
    first = subprocess.Popen([sys.executable, "-c", driver], stdout=subprocess.PIPE)
    while len(list(parts.glob("*.jsonl"))) < 2:
        time.sleep(0.2)
    first.kill()
    first.wait()
    assert not out.exists()
    rerun = subprocess.run([sys.executable, "-c", driver], stdout=subprocess.PIPE, check=True)
    assert int(rerun.stdout.split()[-1]) >= 2
    assert out.read_bytes() == cli_results


def test_ray_data_batches_carry_the_exact_result_lines(cluster, records):
    import verigate.ray

    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    # Arrow columns hold one type: the examples whose samples are numbers.
    numbered = [r for r in records if isinstance(r["sample"], int)][:120]
    ds = ray.data.from_items(numbered)
    graded = ds.map_batches(
        verigate.ray.GradeBatch,
        fn_constructor_kwargs={"registry": str(REGISTRY)},
        concurrency=2,
        num_cpus=1,
        batch_size=40,
        batch_format="pandas",
    )
    lines = [row["verigate_line"] for row in graded.iter_rows()]
    expected = verigate.Grader(REGISTRY, jobs=1).grade(numbered, as_lines=True)
    assert lines == expected


def test_a_worker_refuses_a_registry_other_than_the_drivers():
    import verigate
    import verigate.ray

    with pytest.raises(verigate.RegistryError, match="driver's"):
        verigate.ray.worker_grader(str(REGISTRY), "0" * 64, 1)
