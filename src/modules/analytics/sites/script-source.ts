import { createHash } from 'node:crypto';

/**
 * The tracking script of one site key: no cookie, no storage. It sends a page view on load and on
 * each history change (single-page shops), named events through
 * `window.platformAnalytics.track(name, props)`, and links a cart or customer to the visit
 * (`linkCart(id)`, `linkCustomer(id)`) so a later order counts as a conversion. It posts to the
 * origin it was loaded from, with fetch keepalive; a browser sending Do Not Track sends nothing.
 */
export function scriptSource(siteKey: string): string {
  return `/* platform analytics: no cookies, no personal data */
(function () {
  'use strict';
  var key = ${JSON.stringify(siteKey)};
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : location.origin;
  var endpoint = origin + '/api/v1/t/' + encodeURIComponent(key);
  var dnt = navigator.doNotTrack === '1' || window.doNotTrack === '1';
  function send(name, props, link) {
    if (dnt) return;
    var body = { name: name, url: location.href, screen_width: window.innerWidth };
    if (document.referrer) body.referrer = document.referrer;
    if (props) body.props = props;
    if (link) body.link = link;
    try {
      fetch(endpoint, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
        keepalive: true,
        credentials: 'omit',
        mode: 'cors'
      }).catch(function () {});
    } catch (e) {}
  }
  var last = null;
  function pageview() {
    if (last === location.pathname + location.search) return;
    last = location.pathname + location.search;
    send('pageview');
  }
  var queued = (window.platformAnalytics && window.platformAnalytics.q) || [];
  window.platformAnalytics = {
    siteKey: key,
    track: function (name, props) { send(String(name), props); },
    linkCart: function (id) { send('link', undefined, 'cart:' + id); },
    linkCustomer: function (id) { send('link', undefined, 'customer:' + id); },
    pageview: pageview
  };
  var push = history.pushState;
  history.pushState = function () { push.apply(this, arguments); pageview(); };
  window.addEventListener('popstate', pageview);
  pageview();
  for (var i = 0; i < queued.length; i++) window.platformAnalytics.track(queued[i][0], queued[i][1]);
})();
`;
}

/** The script's entity tag: the hash of its text. */
export function scriptEtag(source: string): string {
  return `"${createHash('sha256').update(source).digest('base64url').slice(0, 27)}"`;
}
