// The version of the control protocol (control_protocol.h): the messages client and server
// exchange over the channel (messages/control_channel.h carries them, whatever they say).
#pragma once

namespace rdmabench {

// Bumped whenever a message changes shape; client and server must agree exactly.
// 2: "run" carries "check"; 3: per-side CQ strategies, poll_batch, per-side figures in "done";
// 4: qps, threads, cq_per_qp, bidir in the spec; duration_ms, margin_ms in "run"; per-thread
// figures, per-stream counts and the sending window in "done"; 5: qp_timeout in the spec;
// 6: transport in the spec; 7: outs in the spec; 8: "received" per stream in "done" (uc),
// post_list and inline in the spec; 9: srq in the spec; 10: "run" carries "counters", and
// "done" then "device_counters" (the server port's counter deltas); 11: tclass, sl and hugepages in
// the spec; 12: post_api in the spec; 13: the keyed handshake is mutual (the client's hello
// carries a nonce, the server proves the key first) and seals every message after it, and
// rdma_cm's connection requests carry the setup's token; 14: TLS 1.3 replaces the keyed
// handshake and sealing (with a key or certificates the first word is a ClientHello), the
// hello carries no nonce; 15: "proved" (a datagram peer's address, datagram_proof.h); 16: the
// client's "result" after each timed run, for the server's log; 17: the spec carries no
// gid_index (each side's own, never sent); 18: "validate" in the spec, and "first_bad" (the
// first message a check failed) in "done"; 19: the server's hello carries "kernel_tuning";
// 20: "page_faults" among each thread's figures in "done"
inline constexpr int kControlProtocolVersion = 20;

}  // namespace rdmabench
