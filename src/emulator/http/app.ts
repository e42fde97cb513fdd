import express, { type Express } from 'express';
import type { EmulatorContext } from '../context';
import { buildOpenApi } from '../openapi';
import { assetsRouter } from '../routes/assets';
import { controlRouter } from '../routes/control';
import { internalRouter } from '../routes/internal';
import { roomsRouter } from '../routes/rooms';
import { sessionsRouter } from '../routes/sessions';
import { errorHandler, notFound } from './errors';
import { faultInjection } from './faults';
import { hostCheck } from './host-check';

/**
 * The emulator's Express app: refuses a foreign `Host` (403), then serves the service's routes under `/liveai`
 * (with fault injection), built-in images at
 * `/liveai/assets`, the OpenAPI document at `/openapi.json`, test routes at `/__emulator`, and `{detail}` on
 * every 4xx/5xx.
 */
export function createApp(ctx: EmulatorContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(hostCheck(ctx));
  // Under provider labels the document names the providers as the wire does (rtc_a_url → livekit_url, …).
  const labelled = (doc: object) =>
    ctx.options.labels.neutral ? doc : (JSON.parse(ctx.options.labels.textToWire(JSON.stringify(doc))) as object);
  app.get('/openapi.json', (_req, res) => void res.json(labelled(buildOpenApi(ctx.baseUrl()))));
  app.use('/__emulator', internalRouter(ctx));
  app.use('/liveai', assetsRouter(ctx));
  app.use('/liveai', faultInjection(ctx), roomsRouter(ctx), sessionsRouter(ctx), controlRouter(ctx));
  app.use(notFound);
  app.use(errorHandler(ctx.options.logger, ctx.options.labels.textToWire));
  return app;
}
