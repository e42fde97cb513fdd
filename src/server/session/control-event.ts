import type { ControlEvent, ControlEventDefinition } from '../../core/index';
import { CONTROL_EVENTS, ControlEventSchema } from '../../core/validation';
import * as v from 'valibot';

/**
 * The row of `CONTROL_EVENTS` for the event `value` names in `event` (its schema and the proxy's policy for it), or
 * undefined for an unknown name. The events differ by `event`, so parsing with the row's schema gives what the union
 * `ControlEventSchema` gives, without trying the others.
 */
export function controlEventOf(value: unknown): (ControlEventDefinition & { schema: v.GenericSchema<unknown, ControlEvent> }) | undefined {
  const name = (value as { event?: unknown } | null | undefined)?.event;
  if (typeof value !== 'object' || value === null || typeof name !== 'string' || !Object.hasOwn(CONTROL_EVENTS, name)) return undefined;
  return CONTROL_EVENTS[name as keyof typeof CONTROL_EVENTS] as ControlEventDefinition & { schema: v.GenericSchema<unknown, ControlEvent> };
}

/** `ControlEventSchema` applied to `value` (the union picks the event's own schema by `event`). */
export function safeParseControlEvent(value: unknown): v.SafeParseResult<typeof ControlEventSchema> {
  return v.safeParse(ControlEventSchema, value);
}
