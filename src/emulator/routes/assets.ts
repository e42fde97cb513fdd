import { Router } from 'express';
import type { EmulatorContext } from '../context';
import { httpError, methodNotAllowed } from '../http/errors';

/** `GET /liveai/assets/<name>.png`: built-in agent images (368×560 PNG), public (no API key). */
export function assetsRouter(ctx: EmulatorContext): Router {
  const r = Router();
  r.route('/assets/:file')
    .get((req, res) => {
      const m = /^([A-Za-z0-9._-]+)\.png$/.exec(req.params.file);
      const png = m ? ctx.assets.get(m[1]!) : undefined;
      if (!png) throw httpError(404, `asset ${JSON.stringify(req.params.file).slice(0, 100)} not found`);
      res.type('png').set('Cache-Control', 'public, max-age=3600').send(png);
    })
    .all(methodNotAllowed(['GET']));
  return r;
}
