import java.io.FileInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

public class HttpClientApp {
  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : null;
  }

  public static void main(String[] args) throws Exception {
    // The PSP's client certificate as a PKCS#12 key store and its password, from the app's configuration; the trust
    // store stays the JVM's default (null trust managers).
    char[] password = System.getenv("APP_CLIENT_P12_PASSWORD").toCharArray();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (FileInputStream in = new FileInputStream(System.getenv("APP_CLIENT_P12"))) {
      keys.load(in, password);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, password);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    HttpClient client = HttpClient.newBuilder().sslContext(tls).build();

    String pix = System.getenv("APP_PIX_URL");
    String basic = Base64.getEncoder().encodeToString((System.getenv("APP_CLIENT_ID") + ":" + System.getenv("APP_CLIENT_SECRET")).getBytes());
    HttpRequest auth = HttpRequest.newBuilder(URI.create(pix + "/oauth/token")).POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Authorization", "Basic " + basic).build();
    String token = field(client.send(auth, HttpResponse.BodyHandlers.ofString()).body(), "access_token");
    String cob = "{\"calendario\":{\"expiracao\":3600},\"valor\":{\"original\":\"123.45\"},\"chave\":\"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d\"}";
    HttpRequest put = HttpRequest.newBuilder(URI.create(pix + "/v2/cob/" + System.getenv("APP_TXID"))).PUT(HttpRequest.BodyPublishers.ofString(cob))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + token).build();
    HttpResponse<String> res = client.send(put, HttpResponse.BodyHandlers.ofString());
    System.out.println("cob " + res.statusCode() + " " + field(res.body(), "status"));
  }
}
