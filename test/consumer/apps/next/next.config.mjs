// distDir per build (NEXT_DIST_DIR), so the consumer tier builds one install with webpack and with Turbopack.
/** @type {import('next').NextConfig} */
export default { distDir: process.env.NEXT_DIST_DIR ?? '.next' };
