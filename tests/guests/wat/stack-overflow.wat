;; Unbounded recursion that uses only the wasm (native) stack, no linear
;; memory: exhausts the engine's call stack (trap "call stack exhausted").
(module
  (memory (export "memory") 1)
  (func $deep (param $n i64) (result i64)
    (i64.add (call $deep (i64.add (local.get $n) (i64.const 1))) (i64.const 1)))
  (func (export "_start")
    (drop (call $deep (i64.const 0)))))
