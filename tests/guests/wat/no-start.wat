;; A module with memory but no `_start`: not a command, must be rejected.
(module
  (memory (export "memory") 1)
  (func (export "main")))
