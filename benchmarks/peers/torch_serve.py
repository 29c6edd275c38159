#!/usr/bin/python3
"""PyTorch peer of examples' ServeModel: TrainGpt's GPT (benchmarks/peers/train_gpt.py, the same seed and
initialisation order, so the same weights as ServeModel's demo model) served as a next-token service over HTTP/1.1
with the Python standard library's threading server and a batching queue, the same protocol and batching policy as
JTorch's InferenceServer:

- POST /predict with {"input": [token ids]} answers {"output": [vocab logits of the next token], "batch_size": n};
- GET /health answers {"status": "ok", ...};
- one worker thread takes the oldest queued example and every queued one of its length, up to --max-batch, and
  waits (at most --max-wait-ms) for more only while other requests are still being read; the forward runs under
  torch.inference_mode() with PyTorch's intra-op threads.

It prints "listening on PORT" once it accepts connections and runs until killed (SIGTERM/SIGINT). examples'
ServeLoad drives it with `--port PORT` and checks every answer against JTorch's model run alone, so a run shows
both the throughput and that the two frameworks answer alike:

    python benchmarks/peers/torch_serve.py --port 0
"""
import argparse
import json
import queue
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import torch
import torch.nn.functional as F

import train_gpt

MAX_BODY = 1 << 20


class Job:
    __slots__ = ("tokens", "done", "output", "batch_size", "error")

    def __init__(self, tokens):
        self.tokens = tokens
        self.done = threading.Event()
        self.output = self.batch_size = self.error = None


class Batcher:
    """The batching queue: the policy of JTorch's BatchingQueue (oldest first, same length, wait only for
    requests still being read)."""

    def __init__(self, model, max_batch, max_wait_s):
        self.model, self.max_batch, self.max_wait_s = model, max_batch, max_wait_s
        self.queue = queue.Queue()
        self.deferred = []
        self.announced = 0
        self.lock = threading.Lock()
        self.batches = self.examples = 0
        threading.Thread(target=self.run, name="batcher", daemon=True).start()

    def announce(self, delta):
        with self.lock:
            self.announced += delta

    def run(self):
        while True:
            first = self.deferred.pop(0) if self.deferred else self.queue.get()
            batch = [first]
            length = len(first.tokens)
            for j in [j for j in self.deferred if len(j.tokens) == length][: self.max_batch - 1]:
                self.deferred.remove(j)
                batch.append(j)
            deadline = time.perf_counter() + self.max_wait_s
            while len(batch) < self.max_batch:
                try:
                    j = self.queue.get_nowait()
                except queue.Empty:
                    left = deadline - time.perf_counter()
                    if left <= 0 or self.announced == 0:
                        break
                    try:
                        j = self.queue.get(timeout=left)
                    except queue.Empty:
                        break
                (batch if len(j.tokens) == length else self.deferred).append(j)
            self.forward(batch)

    def forward(self, batch):
        try:
            with torch.inference_mode():
                idx = torch.tensor([j.tokens for j in batch], dtype=torch.int64)
                hidden = self.model(idx)
                logits = F.linear(hidden[:, -1, :], self.model.lm_head.weight).tolist()
            for j, row in zip(batch, logits):
                j.output, j.batch_size = row, len(batch)
        except Exception as e:  # the batch's callers get the error, the server keeps running
            for j in batch:
                j.error = str(e)
        self.batches += 1
        self.examples += len(batch)
        for j in batch:
            j.done.set()


def handler_for(batcher, vocab, block):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as JTorch's server and the load test's client use

        def setup(self):
            super().setup()
            # headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm holds the body back
            # until the client's delayed ACK (40 ms a request)
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path != "/health":
                return self.answer(404, {"error": "no such path " + self.path})
            self.answer(200, {"status": "ok", "model": "TrainGpt-size GPT (PyTorch " + torch.__version__ + ")",
                              "batches": batcher.batches, "examples": batcher.examples})

        def do_POST(self):
            if self.path != "/predict":
                return self.answer(404, {"error": "no such path " + self.path})
            batcher.announce(1)
            announced = True
            try:
                length = int(self.headers.get("Content-Length", "-1"))
                if length < 0 or length > MAX_BODY:
                    return self.answer(413, {"error": f"body must have a Content-Length of at most {MAX_BODY}"})
                try:
                    tokens = json.loads(self.rfile.read(length))["input"]
                    ok = (isinstance(tokens, list) and 1 <= len(tokens) <= block
                          and all(isinstance(t, int) and 0 <= t < vocab for t in tokens))
                except (ValueError, KeyError, TypeError):
                    ok = False
                if not ok:
                    return self.answer(422, {"error": f"input must be a list of 1 to {block} token ids in [0, {vocab})"})
                job = Job(tokens)
                batcher.queue.put(job)
                batcher.announce(-1)
                announced = False
                job.done.wait()
                if job.error is not None:
                    return self.answer(500, {"error": job.error})
                self.answer(200, {"output": job.output, "batch_size": job.batch_size})
            finally:
                if announced:
                    batcher.announce(-1)

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the listen backlog: the default 5 refuses connections when 64 clients connect at once


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=0, help="0 picks a free port (printed)")
    p.add_argument("--max-batch", type=int, default=64)
    p.add_argument("--max-wait-ms", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=torch.get_num_threads())
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    vocab, _, _ = train_gpt.load_corpus()
    torch.manual_seed(1337)  # ServeModel's demo model: TrainGpt's seed and size
    model = train_gpt.GPT(train_gpt.GPTConfig(len(vocab), 128, 4, 4, 128)).eval()
    batcher = Batcher(model, args.max_batch, args.max_wait_ms / 1e3)
    server = Server(("127.0.0.1", args.port), handler_for(batcher, len(vocab), 128))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"listening on {server.server_address[1]} (torch {torch.__version__}, {args.threads} threads)", flush=True)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
