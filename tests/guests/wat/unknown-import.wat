;; Imports a function the host does not provide (`env.host_escape`) next to a
;; legitimate WASI import: instantiation must fail, nothing may run.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "env" "host_escape" (func $host_escape (param i32) (result i32)))
  (memory (export "memory") 1)
  ;; iovec { buf = 16, len = 5 } at 0; "True\n" at 16; bytes written at 8.
  (data (i32.const 0) "\10\00\00\00\05\00\00\00")
  (data (i32.const 16) "True\n")
  (func (export "_start")
    (drop (call $host_escape (i32.const 0)))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
