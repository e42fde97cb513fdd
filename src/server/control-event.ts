import type * as z from 'zod/mini';
import * as control from '../core/validation';
import type { ControlEvent } from '../core/index';
import { ControlEventSchema } from '../core/validation';

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
export function controlSchemaOf(value: unknown): z.ZodMiniType<ControlEvent> | undefined {
  const name = (value as { event?: unknown } | null | undefined)?.event;
  if (typeof value !== 'object' || value === null || typeof name !== 'string' || !Object.hasOwn(SCHEMAS, name)) return undefined;
  return SCHEMAS[name as keyof typeof SCHEMAS] as z.ZodMiniType<ControlEvent>;
}

/** `ControlEventSchema.safeParse(value)`, with the event's own schema first (same data; the union's error when it fails). */
export function safeParseControlEvent(value: unknown): ReturnType<typeof ControlEventSchema.safeParse> {
  const own = controlSchemaOf(value)?.safeParse(value);
  return own?.success ? own : ControlEventSchema.safeParse(value);
}
