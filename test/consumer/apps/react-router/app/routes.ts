import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('hooks', 'routes/hooks.tsx'),
  route('hooks-ar', 'routes/hooks-ar.tsx'),
  // Resource routes (no component): the companion proxy on createAvatarHandler, for every method and sub-path. The
  // first is docs/proxy.md's recipe, copied from the docs by prepare.mjs; the second a handler with no identity.
  route('api/avatar/*', 'routes/api.avatar.$.ts'),
  route('api/no-identity/*', 'routes/api.no-identity.ts'),
] satisfies RouteConfig;
