/* curlurl: the reading of URLs by libcurl's URL API, for the differential
   test of `urlkit edit` (edit_curl_test.go). It reads one URL per line and
   writes, for each, "OK " and the URL as curl_url_get writes it without a
   default port, or "ERR " and curl's reason. A first line lists the
   schemes the library supports. The flags are those trurl
   passes: a guessed scheme, any scheme, encoding of what must be. */
#include <stdio.h>
#include <string.h>
#include <curl/curl.h>

int main(void)
{
  static char line[1 << 16];
  const char *const *p;
  /* first the schemes this libcurl supports, which depend on its build */
  printf("PROTOCOLS");
  for(p = curl_version_info(CURLVERSION_NOW)->protocols; *p; p++)
    printf(" %s", *p);
  printf("\n");
  while(fgets(line, sizeof(line), stdin)) {
    CURLU *h = curl_url();
    char *out = NULL;
    CURLUcode rc;
    line[strcspn(line, "\n")] = 0;
    rc = curl_url_set(h, CURLUPART_URL, line,
                      CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME |
                      CURLU_URLENCODE);
    if(!rc)
      rc = curl_url_get(h, CURLUPART_URL, &out, CURLU_NO_DEFAULT_PORT);
    if(rc)
      printf("ERR %s\n", curl_url_strerror(rc));
    else
      printf("OK %s\n", out);
    curl_free(out);
    curl_url_cleanup(h);
  }
  return 0;
}
