import type { Variable } from '../../../shared/src/variables.ts';
import type { VariableView } from '../services/ci/variables.ts';

/** The platform's Ci::Variable entity, field by field; the value as the service opened it (null when hidden). */
export function presentVariable(v: VariableView): Variable {
  const r = v.row;
  return {
    variable_type: r.variable_type,
    key: r.key,
    value: v.value,
    hidden: r.hidden === 1,
    protected: r.protected === 1,
    masked: r.masked === 1,
    raw: r.raw === 1,
    environment_scope: r.environment_scope,
    description: r.description,
  };
}
