// undici's Agent module on its own (webhooks/transport.ts loads it rather than undici's index, which also loads its
// fetch, WebSocket, cache and mock layers: about 60 ms at the first delivery instead of 150). Its types are undici's.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
