export { getApi, webSocketUrl } from "./getApi.js";
export { createElectronApi, isBatonApi } from "./electronApi.js";
export { createWebSocketApi, type SocketLike, type WebSocketApi, type WebSocketApiOptions } from "./webSocketApi.js";
