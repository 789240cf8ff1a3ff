// The one definition of "loopback" (an interface to bind, a Host header name, a URL's
// host): config, the Host allow-list, the serve start-up check and URI rules all use it.
export const isLoopbackHost = (host: string): boolean => ['localhost', '::1', '[::1]'].includes(host.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
