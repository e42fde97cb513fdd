import type { ProxyLog } from '../logging';
import type { ProxyEvents } from './events';

/**
 * Writes the proxy's events as structured log lines, each with a stable `event` name and fields (documented in the
 * operations guide), so a log pipeline can build the same numbers as the metrics. Successful service calls are not
 * logged (the metrics count them); a service fault is (`service.error`).
 */
export function attachLogEvents(events: ProxyEvents, log: ProxyLog): void {
  events.on((e) => {
    switch (e.name) {
      case 'session.created':
        log.info(
          { event: e.name, reqId: e.requestId, sessionId: e.sessionId, agent: e.agent, transport: e.transport },
          'avatar session created',
        );
        return;
      case 'session.active':
        log.info(
          { event: e.name, reqId: e.requestId, sessionId: e.sessionId, agent: e.agent, seconds: e.seconds },
          'avatar session active',
        );
        return;
      case 'session.ended':
        log.info(
          { event: e.name, reqId: e.requestId, sessionId: e.sessionId, agent: e.agent, reason: e.reason, cost: e.cost, seconds: e.seconds },
          'avatar session ended',
        );
        return;
      case 'create.refused':
        log.info({ event: e.name, reqId: e.requestId, limit: e.limit, status: e.status }, 'avatar session refused');
        return;
      case 'service.call':
        if (e.status < 500 && !e.error) return;
        log.error(
          {
            event: 'service.error',
            reqId: e.requestId,
            method: e.method,
            route: e.route,
            status: e.status,
            error: e.error ?? 'status',
            ms: e.ms,
          },
          'avatar service call failed',
        );
        return;
      case 'store.error':
        log.error({ event: e.name, reqId: '-', op: e.op, error: e.error }, 'avatar proxy store failed');
        return;
    }
  });
}
