import type { AvatarPool } from './avatar-pool';
import type { Faults } from './faults';
import type { ResolvedOptions } from './options';
import type { Store } from './store';

/** Everything the routes and the state machine share. */
export interface EmulatorContext {
  options: ResolvedOptions;
  store: Store;
  /** Mutable fault settings (`/__emulator/faults`). */
  faults: Faults;
  /** Generated PNGs served at `/liveai/assets/<name>.png`. */
  assets: Map<string, Buffer>;
  /** `http://host:port` once listening. */
  baseUrl: () => string;
  /** Media on with `avatarProcesses` > 0: the processes that run the avatars. */
  avatars?: AvatarPool;
}
