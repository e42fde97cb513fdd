import * as control from '../../core/validation';
import type { ControlEvent } from '../../core/index';
import { ControlEventSchema } from '../../core/validation';
import * as v from 'valibot';

const SCHEMAS = {
  terminate: control.TerminateEventSchema,
  'update-image': control.UpdateImageEventSchema,
  'update-agent-prompt': control.UpdateAgentPromptEventSchema,
  'update-idle-prompt': control.UpdateIdlePromptEventSchema,
  action: control.ActionEventSchema,
  'reset-idle-timeout': control.ResetIdleTimeoutEventSchema,
} as const;

/**
 * The schema of the one control event `value` names in `event`, or undefined for an unknown name. The events
 * differ by `event`, so parsing with it gives what the union `ControlEventSchema` gives, without trying the others.
 */
export function controlSchemaOf(value: unknown): v.GenericSchema<unknown, ControlEvent> | undefined {
  const name = (value as { event?: unknown } | null | undefined)?.event;
  if (typeof value !== 'object' || value === null || typeof name !== 'string' || !Object.hasOwn(SCHEMAS, name)) return undefined;
  return SCHEMAS[name as keyof typeof SCHEMAS] as v.GenericSchema<unknown, ControlEvent>;
}

/** `ControlEventSchema` applied to `value` (the union picks the event's own schema by `event`). */
export function safeParseControlEvent(value: unknown): v.SafeParseResult<typeof ControlEventSchema> {
  return v.safeParse(ControlEventSchema, value);
}
