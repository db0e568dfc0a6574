"""A scenario evaluated on Dask's distributed scheduler: a LocalCluster of two worker processes (the scenario
pickled to each, after a first evaluation here filled its caches) gives the same values as in-process."""

from __future__ import annotations

import os

import distributed

from mlsysim_symbolic import Scenarios


def per_batch(s, model, batch):
    return s.variant(batch_size=batch).per_batch(model).to("B").magnitude


def per_batch_and_pid(s, model, batch):
    return per_batch(s, model, batch), os.getpid()


def test_values_on_a_distributed_local_cluster_match_in_process():
    s = Scenarios.DpSgdPerExampleGradients
    cases = [(model, batch) for model in ("GPT-2", "KWS") for batch in (1, 13, 256, 1024)]
    here = [per_batch(s, m, b) for m, b in cases]
    # by hand: GPT-2 1.5e9 params * 4 B = 6e9 B per example; 256 examples = 1.536e12 B
    assert here[2] == 1.536e12
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        remote_s = client.scatter(s, broadcast=True)
        futures = [client.submit(per_batch_and_pid, remote_s, m, b, pure=False) for m, b in cases]
        results = client.gather(futures)
    assert [value for value, _ in results] == here
    assert os.getpid() not in {pid for _, pid in results}   # computed in the worker processes, not here
