// Replaced per variant by the consumer tier: `import 'liveai-kit/livekit';` or `import 'liveai-kit/daily';`.
import 'liveai-kit/livekit';
