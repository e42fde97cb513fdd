import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadCallScreens } from '../../../src/components/stage/AvatarStage';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

// The stage's call screens (progress, ended, error, the agent's state) are their own chunk, which a page fetches when
// Start comes into view; these tests render the stage in every phase as it is once that chunk is there
// (call-screens.test.tsx checks the stage before it arrives).
await loadCallScreens();
