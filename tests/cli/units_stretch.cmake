# The stretch of work a checkpoint folder's units over the work stand for (checkpoint --unit-every
# `every`), for the continuous run a coverage test compares with: from the multiple of `every` where
# the first unit's window starts measuring (its place plus the manifest's unit_lead, checkpoint
# --unit-lead) to one past the last's, in the mean thread's instructions; `manifest` is manifest.json's
# text. experiments/coverage_stretch.py is the studies' own.
function(units_stretch manifest every from_var span_var)
  string(JSON units LENGTH "${manifest}" units)
  math(EXPR last "${units} - 1")
  string(JSON first_at GET "${manifest}" units 0 mean_instructions)
  string(JSON last_at GET "${manifest}" units ${last} mean_instructions)
  string(JSON lead ERROR_VARIABLE no_lead GET "${manifest}" unit_lead)
  if(no_lead)
    set(lead 0)
  endif()
  math(EXPR from "(${first_at} + ${lead} + ${every} / 2) / ${every} * ${every}")
  math(EXPR span "(${last_at} + ${lead} + ${every} / 2) / ${every} * ${every} + ${every} - ${from}")
  set(${from_var} ${from} PARENT_SCOPE)
  set(${span_var} ${span} PARENT_SCOPE)
endfunction()
