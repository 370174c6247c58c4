require 'json'
require 'net/http'
require 'openssl'
require 'uri'

# The PSP's client certificate (PEM files) from the app's configuration.
CERT = OpenSSL::X509::Certificate.new(File.read(ENV.fetch('APP_CLIENT_CERT')))
KEY = OpenSSL::PKey.read(File.read(ENV.fetch('APP_CLIENT_KEY')))

def call(req, uri)
  res = Net::HTTP.start(uri.host, uri.port, use_ssl: true, cert: CERT, key: KEY, read_timeout: 30) { |http| http.request(req) }
  [res.code, JSON.parse(res.body)]
end

pix = ENV.fetch('APP_PIX_URL')
uri = URI("#{pix}/oauth/token")
req = Net::HTTP::Post.new(uri)
req.set_form_data('grant_type' => 'client_credentials')
req.basic_auth(ENV.fetch('APP_CLIENT_ID'), ENV.fetch('APP_CLIENT_SECRET'))
_, auth = call(req, uri)
uri = URI("#{pix}/v2/cob/#{ENV.fetch('APP_TXID')}")
req = Net::HTTP::Put.new(uri, 'Content-Type' => 'application/json', 'Authorization' => "Bearer #{auth['access_token']}")
req.body = JSON.generate(calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d')
status, body = call(req, uri)
puts "cob #{status} #{body['status']}"
