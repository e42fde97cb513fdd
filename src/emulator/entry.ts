/**
 * The runtime entry of `liveai-kit/emulator` (its types are those of ./index): checks that the optional packages the
 * local service needs are installed, naming every missing one with the install command, before loading the service
 * itself, whose static imports of them would otherwise fail one package at a time with `ERR_MODULE_NOT_FOUND`. The
 * `liveai-emulator` package, which depends on them, uses ./index directly.
 */
import { assertEmulatorPeers } from './peers';

assertEmulatorPeers();
const emulator = await import('./index');

export const { createEmulator, BUILTIN_SEED, SeedSchema, buildOpenApi } = emulator;
